package org.codese;

import static org.codese.testkit.Messages.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectStreamField;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.codese.program.ClassEntry;
import org.codese.program.ClassEntry.FieldEntry;
import org.codese.program.Constant;
import org.codese.program.Constant.HookKind;
import org.codese.program.Constant.Mode;
import org.codese.program.Grammar;
import org.codese.program.Tape;
import org.codese.testkit.Crafted;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The edges of the default surface and of the fingerprint checks (issue 15, measured with PIT):
 * roles a snapshot gives a class that {@code ObjectInputStream} never would, rejected before the
 * serialization filter is asked and before any of the class's code runs; and the JDK's own rules
 * for which fields are serializable and which {@code readObject} counts, followed exactly in both
 * directions (what the JDK would write may be set, what it would not may not).
 */
class SurfaceEdgesTest {
  /** Side effects the hostile snapshots aim at. */
  static final class Effects {
    static volatile boolean readObjectRan;
    static volatile boolean readResolveRan;
  }

  /** Externalizable, with a {@code readObject} that {@code ObjectInputStream} never calls. */
  public static final class ExternalWithReadObject implements Externalizable {
    public ExternalWithReadObject() {}

    @Override
    public void writeExternal(ObjectOutput out) {}

    @Override
    public void readExternal(ObjectInput in) {}

    private void readObject(ObjectInputStream in) {
      Effects.readObjectRan = true;
    }
  }

  /** Externalizable without a public no-arg constructor. */
  public static final class ExternalWithPrivateConstructor implements Externalizable {
    private ExternalWithPrivateConstructor() {}

    public ExternalWithPrivateConstructor(int unused) {}

    @Override
    public void writeExternal(ObjectOutput out) {}

    @Override
    public void readExternal(ObjectInput in) {}
  }

  /** Externalizable without any no-arg constructor. */
  public static final class ExternalWithoutNoArgConstructor implements Externalizable {
    public ExternalWithoutNoArgConstructor(int unused) {}

    @Override
    public void writeExternal(ObjectOutput out) {}

    @Override
    public void readExternal(ObjectInput in) {}
  }

  /** An enum with a {@code readResolve}, which {@code ObjectInputStream} never calls on enums. */
  enum Resolving {
    ONE;

    private Object readResolve() {
      Effects.readResolveRan = true;
      return this;
    }
  }

  /** Serializable, with one field. */
  static final class Box implements Serializable {
    private static final long serialVersionUID = 1L;
    int value;
  }

  /** Not Serializable. */
  static final class Plain {
    int x;
  }

  /** Not Serializable either. */
  static final class AlsoPlain {
    int y;
  }

  /** A record that is not Serializable. */
  record PlainRecord(int x) {}

  /** A non-serializable base whose no-arg constructor is private. */
  static class PrivateBase {
    private PrivateBase() {}

    PrivateBase(int unused) {}
  }

  /** Serializable over {@link PrivateBase}: the JDK finds no valid constructor. */
  static final class NoValidConstructor extends PrivateBase implements Serializable {
    private static final long serialVersionUID = 1L;

    NoValidConstructor(int v) {
      super(v);
    }
  }

  /**
   * {@code serialPersistentFields} that is not private: {@code ObjectStreamClass} ignores it, so
   * the serializable fields are the declared ones, {@code n}, not the transient {@code t} it names.
   */
  static final class IgnoredPersistentFields implements Serializable {
    private static final long serialVersionUID = 1L;
    static final ObjectStreamField[] serialPersistentFields = {
      new ObjectStreamField("t", int.class)
    };
    transient int t;
    int n;
  }

  /** A {@code readObject} that is not private: {@code ObjectInputStream} never calls it. */
  static final class NotAReadObject implements Serializable {
    private static final long serialVersionUID = 1L;
    int v;

    void readObject(ObjectInputStream in) {
      Effects.readObjectRan = true;
    }
  }

  /** The classes the filter was asked about, in order. */
  private final List<Object> asked = new ArrayList<>();

  private CodeseOptions recording;

  @BeforeEach
  void reset() {
    Effects.readObjectRan = false;
    Effects.readResolveRan = false;
    ObjectInputFilter filter =
        info -> {
          asked.add(info.serialClass() == null ? "the snapshot" : info.serialClass());
          return ObjectInputFilter.Status.UNDECIDED;
        };
    recording = CodeseOptions.defaults().withObjectInputFilter(filter);
  }

  /** Loads with the recording filter; asserts the mismatch and that the filter was not asked. */
  private String mismatchBeforeTheFilter(Crafted c) {
    ClassMismatchException e =
        assertThrows(ClassMismatchException.class, () -> Codese.load(c.bytes(), recording));
    assertEquals(List.of(), asked, "the filter was asked before the surface check");
    return e.getMessage();
  }

  private static Tape noFields() {
    return new Tape(new byte[0], new int[] {Tape.FIELDS, 0});
  }

  @Test
  void aSlotHookNeverReachesTheReadObjectOfAnExternalizableClass() {
    Crafted c = new Crafted();
    int type = c.type(ExternalWithReadObject.class.getName());
    int alloc = c.constant(new Constant.Allocator(type, Mode.EXTERNAL));
    int hook = c.constant(new Constant.Hook(HookKind.SLOT, type, 0, noFields()));
    int steps = c.constant(new Constant.PrimArray(new int[] {Grammar.STEP_HOOK, hook}));
    c.code(0, ch -> ch.alloc(0, alloc));
    c.code(2, ch -> ch.runSteps(steps));
    assertMentions(
        mismatchBeforeTheFilter(c),
        ExternalWithReadObject.class.getName(),
        "sets fields of it",
        "an Externalizable class");
    assertFalse(Effects.readObjectRan, "readObject ran");
  }

  @Test
  void aRecordHookOnAClassThatIsNotARecordIsRejectedBeforeTheFilter() {
    Crafted c = new Crafted();
    int box =
        c.type(
            new ClassEntry(
                Box.class.getName(), List.of(new FieldEntry("value", "I", true)), 1L, true));
    int hook =
        c.constant(
            new Constant.Hook(
                HookKind.RECORD, box, 0, new Tape(new byte[4], new int[] {Tape.FIELDS, 0})));
    int steps = c.constant(new Constant.PrimArray(new int[] {Grammar.STEP_HOOK, hook}));
    c.code(2, ch -> ch.runSteps(steps));
    assertMentions(
        mismatchBeforeTheFilter(c), "record's canonical constructor, but it is not a" + " record");
  }

  @Test
  void anEnumsReadResolveIsNeverCalled() {
    Crafted c = new Crafted();
    int type = c.type(Resolving.class.getName());
    int one = c.constant(new Constant.EnumRef(type, "ONE"));
    int hook = c.constant(new Constant.Hook(HookKind.RESOLVE, type, 0, null));
    int steps = c.constant(new Constant.PrimArray(new int[] {Grammar.STEP_HOOK, hook}));
    c.code(0, ch -> ch.storeConstant(0, one));
    c.code(2, ch -> ch.runSteps(steps));
    assertMentions(
        mismatchBeforeTheFilter(c),
        "calls its readResolve, which ObjectInputStream"
            + " only calls on Serializable classes that are not enums");
    assertFalse(Effects.readResolveRan, "readResolve ran");
  }

  @Test
  void anExternalizableClassNeedsAPublicNoArgConstructor() {
    for (Class<?> k :
        List.of(ExternalWithPrivateConstructor.class, ExternalWithoutNoArgConstructor.class)) {
      asked.clear();
      Crafted c = new Crafted();
      int type = c.type(k.getName());
      int alloc = c.constant(new Constant.Allocator(type, Mode.EXTERNAL));
      c.code(0, ch -> ch.alloc(0, alloc));
      assertMentions(
          mismatchBeforeTheFilter(c),
          k.getName(),
          "an Externalizable class needs a" + " public no-arg constructor");
    }
  }

  @Test
  void anExternalizableClassIsNeverAllocatedWithASerializationConstructor() {
    Crafted c = new Crafted();
    int type = c.type(ExternalWithReadObject.class.getName());
    int alloc = c.constant(new Constant.Allocator(type, Mode.SERIAL));
    c.code(0, ch -> ch.alloc(0, alloc));
    assertMentions(
        mismatchBeforeTheFilter(c),
        "with a serialization constructor, but it is" + " Externalizable");
  }

  @Test
  void aClassWithoutAValidConstructorIsNamedWithTheSuperclassToBlame() throws IOException {
    Crafted serial = new Crafted();
    int type = serial.type(NoValidConstructor.class.getName());
    int alloc = serial.constant(new Constant.Allocator(type, Mode.SERIAL));
    serial.code(0, ch -> ch.alloc(0, alloc));
    assertMentions(
        mismatchBeforeTheFilter(serial),
        "no valid constructor: " + PrivateBase.class.getName() + " has no no-arg constructor");

    Crafted bare = new Crafted();
    type = bare.type(NoValidConstructor.class.getName());
    int allocBare = bare.constant(new Constant.Allocator(type, Mode.BARE));
    bare.code(0, ch -> ch.alloc(0, allocBare));
    ClassNotAllowedException e =
        assertThrows(ClassNotAllowedException.class, () -> Codese.load(bare.bytes(), recording));
    assertMentions(
        e.getMessage(),
        "without running any constructor",
        "no valid constructor: " + PrivateBase.class.getName());
    assertEquals(List.of(), asked);
  }

  // ---------------------------------------------------------------- what the refusal says

  /** A non-serializable class only set through a setter, with no fields in its class entry. */
  @Test
  void settingFieldsOfAClassThatIsNotSerializableNeedsItAdmitted() {
    Crafted c = new Crafted();
    int plain = c.type(Plain.class.getName());
    c.constant(new Constant.Setter(plain, "x", "I"));
    c.code(0, ch -> ch.newString(0, "s"));
    ClassNotAllowedException e =
        assertThrows(ClassNotAllowedException.class, () -> Codese.load(c.bytes(), recording));
    assertEquals(Plain.class.getName(), e.classname);
    assertMentions(e.getMessage(), "this snapshot sets fields of it", "admit it with");
    assertEquals(List.of(), asked);
  }

  @Test
  void theRefusalSaysWhatTheSnapshotDoesWithTheClass() {
    Crafted allocates = new Crafted();
    int plain = allocates.type(Plain.class.getName());
    int alloc = allocates.constant(new Constant.Allocator(plain, Mode.BARE));
    allocates.code(0, ch -> ch.alloc(0, alloc));
    assertMentions(refusal(allocates), "this snapshot allocates it", "admit it with");

    Crafted records = new Crafted();
    int rec = records.type(PlainRecord.class.getName());
    int hook = records.constant(new Constant.Hook(HookKind.RECORD, rec, 0, noFields()));
    int steps = records.constant(new Constant.PrimArray(new int[] {Grammar.STEP_HOOK, hook}));
    records.code(2, ch -> ch.runSteps(steps));
    assertMentions(refusal(records), "this snapshot makes a record of it");

    Crafted two = new Crafted().slots(2);
    int first = two.type(Plain.class.getName());
    int second = two.type(AlsoPlain.class.getName());
    int allocFirst = two.constant(new Constant.Allocator(first, Mode.BARE));
    int allocSecond = two.constant(new Constant.Allocator(second, Mode.BARE));
    two.code(0, ch -> ch.alloc(0, allocFirst).alloc(1, allocSecond));
    assertMentions(
        refusal(two),
        "admit it and the other classes it needs with",
        "\"" + AlsoPlain.class.getName() + "\"",
        "\"" + Plain.class.getName() + "\"");
  }

  private String refusal(Crafted c) {
    return assertThrows(ClassNotAllowedException.class, () -> Codese.load(c.bytes())).getMessage();
  }

  // ---------------------------------------------------------------- the JDK's field rules

  private static byte[] setting(Class<?> type, String field, int value) {
    Crafted c = new Crafted();
    int t = c.type(new ClassEntry(type.getName(), List.of(), 1L, true));
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    int setter = c.constant(new Constant.Setter(t, field, "I"));
    c.code(0, ch -> ch.alloc(0, alloc));
    c.code(1, ch -> ch.select(0, null).setInt(setter, value));
    return c.bytes();
  }

  /**
   * A class entry without fields makes the allocated object take no stores; these snapshots list
   * the field so that the store is counted against it.
   */
  private static byte[] settingListed(Class<?> type, String field, int value) {
    Crafted c = new Crafted();
    int t =
        c.type(new ClassEntry(type.getName(), List.of(new FieldEntry(field, "I", true)), 1L, true));
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    int setter = c.constant(new Constant.Setter(t, field, "I"));
    c.code(0, ch -> ch.alloc(0, alloc));
    c.code(1, ch -> ch.select(0, null).setInt(setter, value));
    return c.bytes();
  }

  @Test
  void serialPersistentFieldsCountOnlyWhenPrivateStaticFinal() throws IOException {
    IgnoredPersistentFields restored =
        (IgnoredPersistentFields)
            Codese.fromBytes(settingListed(IgnoredPersistentFields.class, "n", 7));
    assertEquals(7, restored.n);
    ClassMismatchException e =
        assertThrows(
            ClassMismatchException.class,
            () -> Codese.load(setting(IgnoredPersistentFields.class, "t", 7)));
    assertMentions(e.getMessage(), "field t is not a serializable field of the class");
  }

  @Test
  void aReadObjectThatIsNotPrivateIsNoReadObject() throws IOException {
    NotAReadObject restored =
        (NotAReadObject) Codese.fromBytes(settingListed(NotAReadObject.class, "v", 9));
    assertEquals(9, restored.v);
    assertFalse(Effects.readObjectRan);
  }
}
