package org.codese.junit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A fixture's object of the tests' own, not Serializable: Codese admits it as the tests' own. */
final class Shop {
  final String name;
  final List<Item> items = new ArrayList<>();
  final Map<String, Item> bySku = new HashMap<>();

  Shop(String name) {
    this.name = name;
  }

  /** An item; mutable, so that tests can check that they got copies of their own. */
  static final class Item {
    final String sku;
    int stock;

    Item(String sku, int stock) {
      this.sku = sku;
      this.stock = stock;
    }
  }

  /**
   * @return a shop of {@code n} items, item i with stock i
   */
  static Shop of(String name, int n) {
    Shop shop = new Shop(name);
    for (int i = 0; i < n; i++) {
      Item item = new Item("sku-" + i, i);
      shop.items.add(item);
      shop.bySku.put(item.sku, item);
    }
    return shop;
  }

  /**
   * @return whether the shop is as {@link #of} built it, with n items
   */
  boolean pristine(int n) {
    if (items.size() != n || bySku.size() != n) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      Item item = items.get(i);
      if (item.stock != i || bySku.get("sku-" + i) != item) {
        return false;
      }
    }
    return true;
  }

  /** Empties the stock and drops the first item: what a test that changes its copy does. */
  void mutate() {
    for (Item item : items) {
      item.stock = -1;
    }
    bySku.remove(items.remove(0).sku);
  }
}
