package org.codese.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.codese.jvm.Kind;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Phase;
import org.codese.program.Placement;
import org.codese.program.RuntimeContract;
import org.codese.program.Tape;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The records whose {@code equals} and {@code hashCode} are written out by hand (so that a first
 * capture bootstraps no {@code ObjectMethods}) must still compare every component, as the generated
 * ones would: a component added later and forgotten there would make the code cache hand one plan
 * another plan's class files. For each record and each component, two instances that differ in that
 * component alone must differ.
 */
class WrittenOutEqualityTest {
  static Stream<Class<?>> records() {
    List<Class<?>> all = new ArrayList<>();
    all.addAll(List.of(Op.class.getPermittedSubclasses()));
    all.addAll(List.of(Constant.class.getPermittedSubclasses()));
    all.add(Section.class);
    all.add(Placement.class);
    all.add(RuntimeContract.class);
    all.add(ClassEntry.class);
    all.add(ClassEntry.FieldEntry.class);
    return all.stream().filter(Class::isRecord);
  }

  @ParameterizedTest
  @MethodSource("records")
  void everyComponentTakesPartInEquality(Class<?> type) throws Exception {
    RecordComponent[] parts = type.getRecordComponents();
    Class<?>[] types = new Class<?>[parts.length];
    for (int i = 0; i < parts.length; i++) {
      types[i] = parts[i].getType();
    }
    Constructor<?> c = type.getDeclaredConstructor(types);
    c.setAccessible(true);
    Object[] base = new Object[parts.length];
    for (int i = 0; i < parts.length; i++) {
      base[i] = value(types[i], 0);
    }
    Object a = c.newInstance(base);
    Object same = c.newInstance(base.clone());
    assertEquals(a, same, type.getName());
    assertEquals(a.hashCode(), same.hashCode(), type.getName());
    for (int i = 0; i < parts.length; i++) {
      Object[] other = base.clone();
      other[i] = value(types[i], 1);
      Object b = c.newInstance(other);
      assertNotEquals(a, b, type.getSimpleName() + "." + parts[i].getName() + " ignored by equals");
    }
  }

  /** Value {@code which} (0 or 1, the two different) of a component type. */
  private static Object value(Class<?> t, int which) {
    if (t == int.class) {
      return which + 1;
    } else if (t == long.class) {
      return (long) which + 1;
    } else if (t == boolean.class) {
      return which == 1;
    } else if (t == String.class) {
      return which == 0 ? "a" : "b";
    } else if (t == List.class) {
      return which == 0 ? List.of() : List.of(new Op.Select(1, null));
    } else if (t == Kind.class) {
      return Kind.values()[which];
    } else if (t == Constant.Mode.class) {
      return Constant.Mode.values()[which];
    } else if (t == Constant.HookKind.class) {
      return Constant.HookKind.values()[which];
    } else if (t == Phase.class) {
      return Phase.values()[which];
    } else if (t == Placement.class) {
      return new Placement(Phase.values()[which], -1);
    } else if (t == Tape.class) {
      return new Tape(new byte[which], new int[0]);
    } else if (t == Object.class) {
      return new int[] {which};
    } else if (t == String[].class) {
      return new String[] {which == 0 ? "a" : "b"};
    } else if (t == int[].class) {
      return new int[] {which};
    }
    assertTrue(false, "no test values for component type " + t.getName());
    return null;
  }
}
