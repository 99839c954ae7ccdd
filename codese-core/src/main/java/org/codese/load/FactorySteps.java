package org.codese.load;

import java.io.InvalidObjectException;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import org.codese.program.Factories;
import org.codese.program.Grammar;

/**
 * Runs {@link Grammar#STEP_FACTORY} steps: makes the object of a {@link Factories} kind with its
 * public factory and stores it into its slot, where the JDK would have completed the object.
 *
 * <p>{@link FinishCheck} has checked the kind against the class-table entry, the number of
 * references and that the slot was empty. What only the objects can tell fails here: an argument of
 * another type than the factory takes throws the cast's {@code ClassCastException} (as {@code
 * ObjectInputStream} throws one for a field value of the wrong type), carried as a {@link
 * HookFailure}; a {@code null} that the factory refuses ({@code Arrays.asList}, the wrappers), and
 * a wrapper's factory that returns its argument unchanged (an object of the wrapper's own class,
 * which the JDK would have wrapped once more), throw {@code InvalidObjectException}.
 */
final class FactorySteps {
  private FactorySteps() {}

  /**
   * Runs the step at {@code i} of finish program {@code p}.
   *
   * @return where the next step starts
   * @throws InvalidObjectException where the factory cannot make the object the snapshot describes
   * @throws java.io.InvalidClassException if the filter rejects what the JDK's {@code readResolve}
   *     would have returned
   */
  static int run(Object[] table, int[] p, int i) throws java.io.IOException {
    int kind = p[i + 2];
    int n = p[i + 4];
    Object a = n > 0 ? table[p[i + 5]] : null;
    Object b = n > 1 ? table[p[i + 6]] : null;
    if (Factories.wraps(kind) || kind == Factories.ARRAY_LIST) {
      if (a == null) {
        throw new InvalidObjectException(
            Factories.className(kind)
                + " of null: its factory refuses it; capture the graph again");
      }
    }
    Object made;
    try {
      made = make(kind, a, b);
    } catch (ClassCastException e) {
      throw new HookFailure(e);
    } catch (NullPointerException e) {
      if (kind != Factories.ENUM_SET) {
        throw e;
      }
      throw new HookFailure(e); // as the proxy's readResolve throws it
    }
    if (made == a && Factories.wraps(kind)) {
      throw new InvalidObjectException(
          Factories.className(kind)
              + " of an object of its own class: the JDK wraps it once more, its factory does not;"
              + " capture the graph again");
    }
    if (resolvedByJdk(kind, a)) {
      // as ObjectInputStream filters what readResolve returned; the depth, reference and byte
      // figures were checked for the whole snapshot at load
      Admission.checkReplacement(RestoreRun.current().filter(), made, 1, 1, 0);
    }
    table[p[i + 3]] = made;
    return i + 5 + n;
  }

  /**
   * The set {@code EnumSet.SerializationProxy.readResolve} makes: {@code noneOf(type)}, then each
   * element added; a type that is no enum class, an element of another type and a {@code null} fail
   * with {@code noneOf}'s and {@code add}'s exceptions, as there.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object enumSet(Object type, Object elements) {
    java.util.EnumSet set = java.util.EnumSet.noneOf((Class) type);
    for (Object e : (Object[]) elements) {
      set.add((Enum) e);
    }
    return set;
  }

  /**
   * Whether the JDK's {@code readResolve} returns another object than it read: always for the
   * empties and {@code reverseOrder} (their constants) and an {@code EnumSet}'s proxy (the set),
   * for a list wrapper of a random-access list (its random-access form); the JDK then asks the
   * filter about that object.
   */
  private static boolean resolvedByJdk(int kind, Object a) {
    return (kind >= Factories.EMPTY_LIST && kind <= Factories.REVERSE_ORDER)
        || kind == Factories.ENUM_SET
        || ((kind == Factories.UNMODIFIABLE_LIST || kind == Factories.SYNCHRONIZED_LIST)
            && a instanceof java.util.RandomAccess);
  }

  @SuppressWarnings("unchecked")
  private static Object make(int kind, Object a, Object b) throws InvalidObjectException {
    return switch (kind) {
      case Factories.UNMODIFIABLE_COLLECTION ->
          Collections.unmodifiableCollection((Collection<Object>) a);
      case Factories.UNMODIFIABLE_SET -> Collections.unmodifiableSet((Set<Object>) a);
      case Factories.UNMODIFIABLE_SORTED_SET ->
          Collections.unmodifiableSortedSet((SortedSet<Object>) a);
      case Factories.UNMODIFIABLE_NAVIGABLE_SET ->
          Collections.unmodifiableNavigableSet((NavigableSet<Object>) a);
      case Factories.UNMODIFIABLE_LIST -> Collections.unmodifiableList((List<Object>) a);
      case Factories.UNMODIFIABLE_MAP -> Collections.unmodifiableMap((Map<Object, Object>) a);
      case Factories.UNMODIFIABLE_SORTED_MAP ->
          Collections.unmodifiableSortedMap((SortedMap<Object, Object>) a);
      case Factories.UNMODIFIABLE_NAVIGABLE_MAP ->
          Collections.unmodifiableNavigableMap((NavigableMap<Object, Object>) a);
      case Factories.SYNCHRONIZED_COLLECTION ->
          Collections.synchronizedCollection((Collection<Object>) a);
      case Factories.SYNCHRONIZED_SET -> Collections.synchronizedSet((Set<Object>) a);
      case Factories.SYNCHRONIZED_SORTED_SET ->
          Collections.synchronizedSortedSet((SortedSet<Object>) a);
      case Factories.SYNCHRONIZED_NAVIGABLE_SET ->
          Collections.synchronizedNavigableSet((NavigableSet<Object>) a);
      case Factories.SYNCHRONIZED_LIST -> Collections.synchronizedList((List<Object>) a);
      case Factories.SYNCHRONIZED_MAP -> Collections.synchronizedMap((Map<Object, Object>) a);
      case Factories.SYNCHRONIZED_SORTED_MAP ->
          Collections.synchronizedSortedMap((SortedMap<Object, Object>) a);
      case Factories.SYNCHRONIZED_NAVIGABLE_MAP ->
          Collections.synchronizedNavigableMap((NavigableMap<Object, Object>) a);
      case Factories.EMPTY_LIST -> Collections.emptyList();
      case Factories.EMPTY_SET -> Collections.emptySet();
      case Factories.EMPTY_MAP -> Collections.emptyMap();
      case Factories.REVERSE_ORDER -> Collections.reverseOrder();
      case Factories.SINGLETON_LIST -> Collections.singletonList(a);
      case Factories.SINGLETON -> Collections.singleton(a);
      case Factories.SINGLETON_MAP -> Collections.singletonMap(a, b);
      case Factories.ARRAY_LIST -> Arrays.asList((Object[]) a);
      case Factories.ENUM_SET -> enumSet(a, b);
      default -> throw new InvalidObjectException("unknown factory kind " + kind);
    };
  }
}
