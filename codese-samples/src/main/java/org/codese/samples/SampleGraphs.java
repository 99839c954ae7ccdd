package org.codese.samples;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Built-in sample object graphs besides the paper's {@link RedBlackTree}.
 *
 * <p>Every graph is {@link Serializable} throughout and deterministic: the same call always builds
 * a graph with the same JDK-serialized bytes, in every JVM. A JDK serialization round trip of a
 * graph gives the same bytes again, so a restored copy can be checked by comparing its JDK
 * serialization with the original's. Keeping that true constrains the graphs:
 *
 * <ul>
 *   <li>keys of hashed collections have value-based {@code hashCode}s (strings, boxes, UUIDs,
 *       {@link Product}), never identity-based ones such as an enum's;
 *   <li>no {@link HashSet} has fewer than seven elements and no {@link HashMap} exactly 12, 24, 48,
 *       96, ... entries: for those sizes the collection's own {@code readObject} picks another
 *       table capacity than the original had, and the capacity is part of the serialized form;
 *   <li>{@code Set.of} and {@code Map.of} hold at most one element, since their iteration order
 *       otherwise changes from one JVM to the next;
 *   <li>strings that are keys are not shared with enum constants' names, as a restored enum
 *       constant is the JVM's own and not the captured string.
 * </ul>
 */
public final class SampleGraphs {
  private static final String[] WORDS = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango"
  };

  private SampleGraphs() {}

  /** Product categories; an enum, so restored graphs must keep the constants' identity. */
  public enum Category {
    BOOKS,
    GAMES,
    GARDEN,
    KITCHEN,
    TOOLS
  }

  /** Order states, used as the keys of an {@link EnumMap}. */
  public enum Status {
    NEW,
    PAID,
    SHIPPED,
    RETURNED
  }

  /** An amount in a currency; a record, so it can only be rebuilt by its canonical constructor. */
  public record Money(BigDecimal amount, String currency) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** A product; equal by SKU, and used as a key in hashed collections. */
  public static final class Product implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String sku;
    private final String name;
    private final Category category;
    private final Money price;
    private final Set<String> tags;

    Product(String sku, String name, Category category, Money price, Set<String> tags) {
      this.sku = sku;
      this.name = name;
      this.category = category;
      this.price = price;
      this.tags = tags;
    }

    /**
     * @return the stock-keeping unit that identifies the product
     */
    public String sku() {
      return sku;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Product p && sku.equals(p.sku);
    }

    @Override
    public int hashCode() {
      return sku.hashCode();
    }

    @Override
    public String toString() {
      return sku + " " + name + " (" + category + ", " + price + ", " + tags + ")";
    }
  }

  /** A customer, shared by all of its orders. */
  public static final class Customer implements Serializable {
    private static final long serialVersionUID = 1L;
    private final UUID id;
    private final String name;
    private final LocalDate since;
    private final List<String> emails;
    private transient int cachedScore;
    private Customer referredBy;

    Customer(UUID id, String name, LocalDate since, List<String> emails) {
      this.id = id;
      this.name = name;
      this.since = since;
      this.emails = emails;
      this.cachedScore = name.length();
    }

    @Override
    public String toString() {
      return name
          + " <"
          + id
          + ">, since "
          + since
          + ", "
          + emails
          + ", score "
          + cachedScore
          + (referredBy == null ? "" : ", referred by " + referredBy.name);
    }
  }

  /** One line of an order: a shared product, a quantity and the price paid. */
  public static final class OrderLine implements Serializable {
    private static final long serialVersionUID = 1L;
    private final Product product;
    private final short quantity;
    private final Money paid;

    OrderLine(Product product, short quantity, Money paid) {
      this.product = product;
      this.quantity = quantity;
      this.paid = paid;
    }

    @Override
    public String toString() {
      return quantity + " x " + product.sku + " at " + paid;
    }
  }

  /** An order; its lines point back to shared products, and it points to a shared customer. */
  public static final class Order implements Serializable {
    private static final long serialVersionUID = 1L;
    private final long number;
    private final Customer customer;
    private final LocalDateTime placed;
    private final ArrayList<OrderLine> lines = new ArrayList<>();
    private Status status = Status.NEW;
    private Object note;
    private double discount;
    private char priority;
    private boolean gift;

    Order(long number, Customer customer, LocalDateTime placed) {
      this.number = number;
      this.customer = customer;
      this.placed = placed;
    }

    @Override
    public String toString() {
      return "#"
          + number
          + " "
          + status
          + " for "
          + customer.name
          + " at "
          + placed
          + ": "
          + lines
          + (note == null ? "" : " note=" + note)
          + " discount="
          + discount
          + " priority="
          + priority
          + " gift="
          + gift;
    }
  }

  /** A log entry; kept in a {@link LinkedList}. */
  public static final class Event implements Serializable {
    private static final long serialVersionUID = 1L;
    private final Instant at;
    private final Duration took;
    private final String what;
    private final Object subject;

    Event(Instant at, Duration took, String what, Object subject) {
      this.at = at;
      this.took = took;
      this.what = what;
      this.subject = subject;
    }

    @Override
    public String toString() {
      return at + " " + what + " (" + took + ")";
    }
  }

  /**
   * A shop's state, built from JDK collections with user objects inside: {@link ArrayList}, {@link
   * LinkedList}, {@link HashMap}, {@link LinkedHashMap}, {@link TreeMap}, {@link HashSet}, {@link
   * ArrayDeque}, {@link EnumMap}, {@link BitSet}, {@code List.of}, {@code Map.of}, {@code Set.of},
   * {@link Collections#unmodifiableList}, {@code java.time} values, {@link BigDecimal}, {@link
   * UUID}, strings, boxed primitives, a record, enums and nested lists. Many objects are shared
   * (customers by their orders, products by order lines and by several indexes), and some
   * references form cycles (a customer referred by another, an order list holding itself).
   *
   * <p>The root is a {@link LinkedHashMap} from section names to sections. The graph holds a few
   * thousand objects and is the same on every call.
   *
   * @return the root of a new graph
   */
  public static Object jdkCollections() {
    Random random = new Random(20120618L);
    ZoneId zone = ZoneId.of("Europe/Paris");
    LocalDateTime epoch = LocalDateTime.of(2012, 6, 18, 9, 30);
    Money zero = new Money(BigDecimal.ZERO.setScale(2), "EUR");

    TreeMap<String, Product> catalog = new TreeMap<>();
    HashMap<String, Integer> perCategory = new HashMap<>();
    for (int i = 0; i < 120; i++) {
      Category category = Category.values()[random.nextInt(Category.values().length)];
      Set<String> tags = new HashSet<>();
      for (int size = 7 + random.nextInt(4); tags.size() < size; ) {
        tags.add(word(random));
      }
      String sku = String.format("SKU-%05d", random.nextInt(100_000));
      BigDecimal price = BigDecimal.valueOf(99 + random.nextInt(100_000), 2);
      Product product =
          new Product(
              sku,
              word(random) + " " + word(random),
              category,
              new Money(price, "EUR"),
              i % 10 == 0 ? Set.of() : i % 10 == 1 ? Set.of("clearance") : tags);
      catalog.put(sku, product);
      perCategory.merge(category.name().toLowerCase(Locale.ROOT), 1, Integer::sum);
    }
    List<Product> products = new ArrayList<>(catalog.values());

    List<Customer> customers = new ArrayList<>();
    Map<UUID, Customer> customersById = new HashMap<>();
    for (int i = 0; i < 150; i++) {
      UUID id = new UUID(random.nextLong(), random.nextLong());
      List<String> emails =
          i % 3 == 0
              ? List.of(word(random) + i + "@example.org", word(random) + "@example.com")
              : Collections.unmodifiableList(
                  new ArrayList<>(List.of(word(random) + i + "@example.net")));
      Customer c =
          new Customer(
              id,
              capitalized(word(random)) + " " + i,
              LocalDate.of(2000, 1, 1).plusDays(random.nextInt(4_000)),
              emails);
      if (i > 0 && i % 4 == 0) {
        c.referredBy = customers.get(random.nextInt(customers.size()));
      }
      customers.add(c);
      customersById.put(id, c);
    }
    customers.get(0).referredBy = customers.get(customers.size() - 1);

    List<Order> orders = new ArrayList<>();
    EnumMap<Status, List<Order>> byStatus = new EnumMap<>(Status.class);
    ArrayDeque<Order> toShip = new ArrayDeque<>();
    LinkedHashMap<Product, Integer> sold = new LinkedHashMap<>();
    BitSet giftOrders = new BitSet();
    for (int i = 0; i < 400; i++) {
      Customer customer = customers.get(random.nextInt(customers.size()));
      Order order = new Order(100_000L + i, customer, epoch.plusMinutes(37L * i));
      for (int l = 1 + random.nextInt(3); l > 0; l--) {
        Product product = products.get(random.nextInt(products.size()));
        short quantity = (short) (1 + random.nextInt(5));
        order.lines.add(new OrderLine(product, quantity, i % 7 == 0 ? zero : product.price));
        sold.merge(product, (int) quantity, Integer::sum);
      }
      order.status = Status.values()[random.nextInt(Status.values().length)];
      order.discount = random.nextInt(4) == 0 ? random.nextInt(30) / 100.0 : 0.0;
      order.priority = (char) ('A' + random.nextInt(3));
      order.gift = random.nextInt(5) == 0;
      switch (i % 5) {
        case 0 -> order.note = word(random);
        case 1 -> order.note = Long.valueOf(random.nextInt(1_000));
        case 2 -> order.note = List.of(word(random), i);
        default -> order.note = null;
      }
      if (order.gift) {
        giftOrders.set(i);
      }
      if (order.status == Status.PAID) {
        toShip.add(order);
      }
      byStatus.computeIfAbsent(order.status, s -> new ArrayList<>()).add(order);
      orders.add(order);
    }

    LinkedList<Event> log = new LinkedList<>();
    Instant start = epoch.atZone(zone).toInstant();
    for (int i = 0; i < 300; i++) {
      Object subject =
          switch (i % 3) {
            case 0 -> orders.get(random.nextInt(orders.size()));
            case 1 -> customers.get(random.nextInt(customers.size()));
            default -> products.get(random.nextInt(products.size()));
          };
      log.add(
          new Event(
              start.plusSeconds(61L * i),
              Duration.ofMillis(random.nextInt(5_000)),
              WORDS[i % WORDS.length],
              subject));
    }

    List<Object> boxes = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      boxes.add(i);
      boxes.add((long) i * 1_000_000_007L);
      boxes.add(i / 7.0);
      boxes.add((float) i / 3);
      boxes.add((short) -i);
      boxes.add((byte) i);
      boxes.add((char) ('a' + i % 26));
      boxes.add(i % 2 == 0);
    }
    boxes.add(null);
    boxes.add(boxes.get(0));

    List<Object> nested = new ArrayList<>();
    List<Object> level = nested;
    for (int depth = 0; depth < 6; depth++) {
      List<Object> inner = new ArrayList<>();
      level.add("depth " + depth);
      level.add(List.of(depth, depth * depth));
      level.add(inner);
      level = inner;
    }
    level.add(nested);
    List<Object> selfHolding = new ArrayList<>();
    selfHolding.add(selfHolding);
    selfHolding.add(orders.get(0));

    Map<String, Object> times = new LinkedHashMap<>();
    times.put("opened", LocalDate.of(2012, 6, 18));
    times.put("opensAt", LocalTime.of(9, 0));
    times.put("lastSale", ZonedDateTime.of(epoch.plusDays(3), zone));
    times.put("uptime", Duration.ofHours(1234).plusSeconds(5));
    times.put("checkpoint", Instant.ofEpochSecond(1_340_000_000L, 123_456_789));

    Map<String, Object> root = new LinkedHashMap<>();
    root.put("name", "Codese sample shop");
    root.put("currency", Map.of("EUR", "Euro"));
    root.put("catalog", catalog);
    root.put("perCategory", perCategory);
    root.put("customers", customers);
    root.put("customersById", customersById);
    root.put("orders", orders);
    root.put("byStatus", byStatus);
    root.put("toShip", toShip);
    root.put("sold", sold);
    root.put("giftOrders", giftOrders);
    root.put("log", log);
    root.put("boxes", boxes);
    root.put("nested", nested);
    root.put("selfHolding", selfHolding);
    root.put("times", times);
    root.put("taxRate", new BigDecimal("0.196"));
    root.put("bigTotal", new BigDecimal("12345678901234567890.123456789"));
    root.put("emptyList", List.of());
    root.put("firstProduct", Objects.requireNonNull(catalog.firstEntry()).getValue());
    return root;
  }

  private static String word(Random random) {
    return WORDS[random.nextInt(WORDS.length)];
  }

  private static String capitalized(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
