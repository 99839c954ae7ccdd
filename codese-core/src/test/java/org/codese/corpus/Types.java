package org.codese.corpus;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamException;
import java.io.ObjectStreamField;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.codese.testkit.SerialFormOnly;

/** The classes the corpus graphs are made of. Each is as small as its point allows. */
public final class Types {
  private Types() {}

  /** Every primitive type as a field. */
  public static final class AllPrimitives implements Serializable {
    private static final long serialVersionUID = 1L;
    byte b;
    short s;
    int i;
    long l;
    float f;
    double d;
    char c;
    boolean z;

    public AllPrimitives(byte b, short s, int i, long l, float f, double d, char c, boolean z) {
      this.b = b;
      this.s = s;
      this.i = i;
      this.l = l;
      this.f = f;
      this.d = d;
      this.c = c;
      this.z = z;
    }
  }

  /** Every box type as a field, typed as the box. */
  public static final class AllBoxes implements Serializable {
    private static final long serialVersionUID = 1L;
    Byte b;
    Short s;
    Integer i;
    Long l;
    Float f;
    Double d;
    Character c;
    Boolean z;
    Number n;
    Object o;
  }

  /** A plain serializable node with one link and a payload. */
  public static final class Node implements Serializable {
    private static final long serialVersionUID = 1L;
    public Object value;
    public Node next;

    public Node(Object value) {
      this.value = value;
    }
  }

  /** A doubly linked node. */
  public static final class DNode implements Serializable {
    private static final long serialVersionUID = 1L;
    int id;
    DNode prev;
    DNode next;

    public DNode(int id) {
      this.id = id;
    }
  }

  /** A tree node with children and a parent link. */
  public static final class TreeNode implements Serializable {
    private static final long serialVersionUID = 1L;
    String label;
    TreeNode parent;
    List<TreeNode> children = new ArrayList<>();
    Object payload;

    public TreeNode(String label) {
      this.label = label;
    }

    public TreeNode add(TreeNode child) {
      child.parent = this;
      children.add(child);
      return child;
    }
  }

  /** Two holders for general fields. */
  public static final class Pair implements Serializable {
    private static final long serialVersionUID = 1L;
    public Object first;
    public Object second;

    public Pair(Object first, Object second) {
      this.first = first;
      this.second = second;
    }
  }

  /** A simple enum. */
  public enum Color {
    RED,
    GREEN,
    BLUE
  }

  /** An enum whose constants have bodies (so their classes are anonymous subclasses). */
  public enum Op {
    PLUS {
      @Override
      int apply(int a, int b) {
        return a + b;
      }
    },
    TIMES {
      @Override
      int apply(int a, int b) {
        return a * b;
      }
    };

    abstract int apply(int a, int b);
  }

  /** An enum with mutable state, which serialization never carries. */
  public enum Counter {
    ONE,
    TWO;
    int hits;
  }

  /** An enum of 70 constants, so that {@code EnumSet} uses its "jumbo" form. */
  public enum Big {
    C0,
    C1,
    C2,
    C3,
    C4,
    C5,
    C6,
    C7,
    C8,
    C9,
    C10,
    C11,
    C12,
    C13,
    C14,
    C15,
    C16,
    C17,
    C18,
    C19,
    C20,
    C21,
    C22,
    C23,
    C24,
    C25,
    C26,
    C27,
    C28,
    C29,
    C30,
    C31,
    C32,
    C33,
    C34,
    C35,
    C36,
    C37,
    C38,
    C39,
    C40,
    C41,
    C42,
    C43,
    C44,
    C45,
    C46,
    C47,
    C48,
    C49,
    C50,
    C51,
    C52,
    C53,
    C54,
    C55,
    C56,
    C57,
    C58,
    C59,
    C60,
    C61,
    C62,
    C63,
    C64,
    C65,
    C66,
    C67,
    C68,
    C69
  }

  /** Holds enums in fields. */
  public static final class EnumHolder implements Serializable {
    private static final long serialVersionUID = 1L;
    Color color;
    Op op;
    Counter counter;
    Enum<?> any;
    Color[] colors;
  }

  /** A superclass whose fields a subclass inherits. */
  public static class Base implements Serializable {
    private static final long serialVersionUID = 1L;
    int a;
    String name;
    protected Object shared;
  }

  /** Inherits {@link Base}'s fields and adds its own. */
  public static class Derived extends Base {
    private static final long serialVersionUID = 1L;
    long b;
    Object extra;
  }

  /** Shadows {@link Base}'s fields with fields of the same names and other values. */
  public static class Shadow extends Base {
    private static final long serialVersionUID = 1L;
    int a;
    String name;
  }

  /** A third level that shadows again, with another type. */
  public static final class Shadow2 extends Shadow {
    private static final long serialVersionUID = 1L;
    long a;
    Object name;
  }

  /** Transient fields of every kind, set in the original; they must come back as defaults. */
  public static final class WithTransients implements Serializable {
    private static final long serialVersionUID = 1L;
    int kept;
    transient int ti;
    transient long tl;
    transient boolean tz;
    transient String ts;
    transient Object to;
    String keptRef;
  }

  /** Static fields, which are not part of an object's state. */
  public static final class WithStatics implements Serializable {
    private static final long serialVersionUID = 1L;
    public static int staticCounter = 7;
    static final String CONSTANT = "constant";
    static Object staticRef = new Object();
    int instance;
  }

  /** Private and final fields, including a final reference to a mutable list. */
  public static final class PrivateFinal implements Serializable {
    private static final long serialVersionUID = 1L;
    private final int x;
    private final String s;
    private final List<String> list;
    private final Object[] arr;
    private int mutable;

    public PrivateFinal(int x, String s, List<String> list) {
      this.x = x;
      this.s = s;
      this.list = list;
      this.arr = new Object[] {s, list};
      this.mutable = x * 2;
    }

    public int x() {
      return x;
    }
  }

  /** No no-arg constructor; the constructor rejects what serialization writes... never. */
  public static final class NoDefaultCtor implements Serializable {
    private static final long serialVersionUID = 1L;
    final int x;
    final int y;
    NoDefaultCtor self;

    public NoDefaultCtor(int x, int y) {
      if (x < 0) {
        throw new IllegalArgumentException("constructor must not run on restore");
      }
      this.x = x;
      this.y = y;
    }
  }

  /** Counts constructor runs of the non-serializable superclass below. */
  public static final AtomicInteger BASE_CTOR_RUNS = new AtomicInteger();

  /**
   * A non-serializable superclass with a no-arg constructor that has side effects. JDK
   * deserialization runs it for every serializable subclass instance.
   */
  public static class NonSerBase {
    int baseValue;
    String baseName;
    Object baseRef;

    public NonSerBase() {
      BASE_CTOR_RUNS.incrementAndGet();
      baseValue = 42;
      baseName = "set by NonSerBase()";
    }

    public NonSerBase(int v) {
      baseValue = v;
      baseName = "set by NonSerBase(int)";
      baseRef = new int[] {v};
    }
  }

  /** Serializable subclass of {@link NonSerBase}. */
  public static final class SerSub extends NonSerBase implements Serializable {
    private static final long serialVersionUID = 1L;
    int own;
    String ownName;

    public SerSub(int v) {
      super(v);
      own = v + 1;
      ownName = "own" + v;
    }
  }

  /** A plain class that is not serializable. */
  public static final class Plain {
    int id;
    String name;
    Plain next;
    Object any;
    final long stamp;
    transient int notSaved;

    public Plain(int id, String name) {
      this.id = id;
      this.name = name;
      this.stamp = id * 1_000_000_007L;
    }
  }

  /** A non-serializable class without a no-arg constructor, with a superclass. */
  public static class PlainBase {
    protected final String baseLabel;

    public PlainBase(String baseLabel) {
      this.baseLabel = Objects.requireNonNull(baseLabel);
    }
  }

  /** Subclass of {@link PlainBase}. */
  public static final class PlainSub extends PlainBase {
    private final int[] data;
    private PlainSub partner;

    public PlainSub(String label, int... data) {
      super(label);
      this.data = data;
    }

    public void partner(PlainSub p) {
      this.partner = p;
    }
  }

  /** A non-serializable record. */
  public record PlainRecord(int id, String name, List<Object> items) {}

  /** defaultWriteObject / defaultReadObject. */
  public static final class DefaultHooks implements Serializable {
    private static final long serialVersionUID = 1L;
    int x;
    String s;
    Object ref;

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
    }
  }

  /** putFields / readFields, including a field that is written under another name. */
  public static final class PutFields implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final ObjectStreamField[] serialPersistentFields = {
      new ObjectStreamField("count", int.class),
      new ObjectStreamField("label", String.class),
      new ObjectStreamField("legacyRef", Object.class),
    };
    int count;
    String label;
    Object ref;

    private void writeObject(ObjectOutputStream out) throws IOException {
      ObjectOutputStream.PutField f = out.putFields();
      f.put("count", count);
      f.put("label", label);
      f.put("legacyRef", ref);
      out.writeFields();
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      ObjectInputStream.GetField f = in.readFields();
      count = f.get("count", -1);
      label = (String) f.get("label", "missing");
      ref = f.get("legacyRef", null);
    }
  }

  /** defaultWriteObject followed by optional data: primitives and objects after the fields. */
  public static final class ExtraData implements Serializable {
    private static final long serialVersionUID = 1L;
    int x;
    transient int[] extraInts;
    transient String extraUtf;
    transient Object extraObject;
    transient long extraLong;
    transient double extraDouble;

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeInt(extraInts.length);
      for (int v : extraInts) {
        out.writeInt(v);
      }
      out.writeUTF(extraUtf);
      out.writeLong(extraLong);
      out.writeDouble(extraDouble);
      out.writeObject(extraObject);
      out.writeBoolean(true);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      extraInts = new int[in.readInt()];
      for (int i = 0; i < extraInts.length; i++) {
        extraInts[i] = in.readInt();
      }
      extraUtf = in.readUTF();
      extraLong = in.readLong();
      extraDouble = in.readDouble();
      extraObject = in.readObject();
      if (!in.readBoolean()) {
        throw new IOException("trailer lost");
      }
    }
  }

  /**
   * A node whose parent link is transient and rebuilt by readObject, and whose children are written
   * as a count and objects: the shape of many real collection classes.
   */
  public static final class RebuiltLinks implements Serializable {
    private static final long serialVersionUID = 1L;
    String name;
    transient RebuiltLinks parent;
    transient List<RebuiltLinks> kids = new ArrayList<>();

    public RebuiltLinks(String name) {
      this.name = name;
    }

    public RebuiltLinks add(RebuiltLinks k) {
      k.parent = this;
      kids.add(k);
      return k;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeInt(kids.size());
      for (RebuiltLinks k : kids) {
        out.writeObject(k);
      }
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      int n = in.readInt();
      kids = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        RebuiltLinks k = (RebuiltLinks) in.readObject();
        k.parent = this;
        kids.add(k);
      }
    }
  }

  /** A serializable superclass and subclass that both have their own hooks. */
  public static class HookedBase implements Serializable {
    private static final long serialVersionUID = 1L;
    int baseX;
    transient String baseExtra;

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeObject(baseExtra);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      baseExtra = (String) in.readObject();
    }
  }

  /** Subclass of {@link HookedBase} with its own hook writing nothing extra. */
  public static final class HookedSub extends HookedBase {
    private static final long serialVersionUID = 1L;
    int subY;
    transient int subExtra;

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeShort(subExtra);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      subExtra = in.readShort();
    }
  }

  /** A writeObject that writes nothing at all (not even the default fields). */
  @SerialFormOnly
  public static final class WritesNothing implements Serializable {
    private static final long serialVersionUID = 1L;
    int x = 5;

    private void writeObject(ObjectOutputStream out) {}

    private void readObject(ObjectInputStream in) {}
  }

  /** Externalizable with primitive and object state. */
  public static final class Ext implements Externalizable {
    private static final long serialVersionUID = 1L;
    int x;
    String s;
    Object ref;
    double[] ds;

    public Ext() {}

    public Ext(int x, String s, Object ref) {
      this.x = x;
      this.s = s;
      this.ref = ref;
      this.ds = new double[] {x, -x, x / 3.0};
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
      out.writeInt(x);
      out.writeUTF(s);
      out.writeObject(ref);
      out.writeInt(ds.length);
      for (double d : ds) {
        out.writeDouble(d);
      }
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException, ClassNotFoundException {
      x = in.readInt();
      s = in.readUTF();
      ref = in.readObject();
      ds = new double[in.readInt()];
      for (int i = 0; i < ds.length; i++) {
        ds[i] = in.readDouble();
      }
    }
  }

  /** Counts runs of {@link ExtCounted}'s public constructor, which JDK deserialization calls. */
  public static final AtomicInteger EXT_CTOR_RUNS = new AtomicInteger();

  /** Externalizable whose public no-arg constructor has a side effect. */
  public static final class ExtCounted implements Externalizable {
    private static final long serialVersionUID = 1L;
    int v;
    String fromCtor;

    public ExtCounted() {
      EXT_CTOR_RUNS.incrementAndGet();
      fromCtor = "ctor";
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
      out.writeInt(v);
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException {
      v = in.readInt();
    }
  }

  /** Replaced by a proxy on write; the proxy resolves back to a new Money. */
  public static final class Money implements Serializable {
    private static final long serialVersionUID = 1L;
    final long cents;
    final String currency;

    public Money(long cents, String currency) {
      this.cents = cents;
      this.currency = currency;
    }

    private Object writeReplace() {
      return new MoneyProxy(currency + ":" + cents);
    }

    private void readObject(ObjectInputStream in) throws IOException {
      throw new java.io.InvalidObjectException("proxy required");
    }
  }

  /** The serial form of {@link Money}. */
  public static final class MoneyProxy implements Serializable {
    private static final long serialVersionUID = 1L;
    final String text;

    MoneyProxy(String text) {
      this.text = text;
    }

    private Object readResolve() {
      int colon = text.indexOf(':');
      return new Money(Long.parseLong(text.substring(colon + 1)), text.substring(0, colon));
    }
  }

  /** A singleton that keeps its identity through readResolve. */
  public static final class Singleton implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final Singleton INSTANCE = new Singleton();
    int state = 1;

    private Singleton() {}

    private Object readResolve() throws ObjectStreamException {
      return INSTANCE;
    }
  }

  /** A serializable record. */
  public record Point(int x, int y) implements Serializable {}

  /** A record of records. */
  public record Line(Point from, Point to, String label) implements Serializable {}

  /** A record holding a list. */
  public record Polygon(String name, List<Point> points) implements Serializable {}

  /** A record whose canonical constructor validates and normalizes. */
  public record Range(int lo, int hi) implements Serializable {
    public Range {
      if (lo > hi) {
        throw new IllegalArgumentException(lo + " > " + hi);
      }
    }
  }

  /** A record with every kind of component. */
  public record Mixed(
      byte b, char c, double d, long l, boolean z, Object any, int[] ints, Color color)
      implements Serializable {}

  /** serialPersistentFields that leave out a real field. */
  public static final class Persistent implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final ObjectStreamField[] serialPersistentFields = {
      new ObjectStreamField("a", int.class), new ObjectStreamField("c", String.class),
    };
    int a;
    int b;
    String c;
    String d;
  }

  /** A key with a custom hashCode and equals over its fields. */
  public static final class Key implements Serializable, Comparable<Key> {
    private static final long serialVersionUID = 1L;
    final String id;
    final int n;
    private transient int hash;

    public Key(String id, int n) {
      this.id = id;
      this.n = n;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.n == n && k.id.equals(id);
    }

    @Override
    public int hashCode() {
      int h = hash;
      if (h == 0) {
        h = id.hashCode() * 31 + n * 0x9E3779B9;
        hash = h;
      }
      return h;
    }

    @Override
    public int compareTo(Key o) {
      int c = id.compareTo(o.id);
      return c != 0 ? c : Integer.compare(n, o.n);
    }

    @Override
    public String toString() {
      return id + "#" + n;
    }
  }

  /** An element that points back at the set that holds it. */
  public static final class Member implements Serializable {
    private static final long serialVersionUID = 1L;
    final int id;
    Object owner;

    public Member(int id) {
      this.id = id;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Member m && m.id == id;
    }

    @Override
    public int hashCode() {
      return Integer.hashCode(id) * 7919;
    }
  }

  /** A person, for nested collections of user objects. */
  public static final class Person implements Serializable {
    private static final long serialVersionUID = 1L;
    String name;
    int age;
    List<Person> friends = new ArrayList<>();
    Map<String, Object> attributes;

    public Person(String name, int age) {
      this.name = name;
      this.age = age;
    }
  }

  /** A serializable comparator class: by length, then reversed natural order. */
  public static final class ByLengthThenReverse implements Comparator<String>, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(String a, String b) {
      int c = Integer.compare(a.length(), b.length());
      return c != 0 ? c : b.compareTo(a);
    }
  }

  /** A serializable comparator of keys with state. */
  public static final class KeyOrder implements Comparator<Key>, Serializable {
    private static final long serialVersionUID = 1L;
    final boolean descending;

    public KeyOrder(boolean descending) {
      this.descending = descending;
    }

    @Override
    public int compare(Key a, Key b) {
      return descending ? b.compareTo(a) : a.compareTo(b);
    }
  }

  /** An outer class whose inner (non-static) class holds {@code this$0}. */
  public static final class Outer implements Serializable {
    private static final long serialVersionUID = 1L;
    String name = "outer";
    Inner inner;

    /** An inner class. */
    public final class Inner implements Serializable {
      private static final long serialVersionUID = 1L;
      int v;

      public Outer outer() {
        return Outer.this;
      }
    }

    public Inner newInner(int v) {
      Inner i = new Inner();
      i.v = v;
      return i;
    }
  }

  /** Fields typed as interfaces and Object, holding various implementations. */
  public static final class Polymorphic implements Serializable {
    private static final long serialVersionUID = 1L;
    Object anything;
    Comparable<?> comparable;
    CharSequence chars;
    Number number;
    Serializable ser;
    List<?> list;
    Object[] objects;
    Object array;
  }

  /** A generic box. */
  public static final class Box<T> implements Serializable {
    private static final long serialVersionUID = 1L;
    T value;
    List<? extends T> more;

    public Box(T value) {
      this.value = value;
    }
  }

  /** A non-serializable holder of non-serializable JDK values such as Optional. */
  /** A non-serializable class holding a closed JDK class that cannot be captured. */
  public static final class OptionalHolder {
    public java.util.Optional<String> name;
  }

  /** A non-serializable singly linked node for long chains. */
  public static final class Link {
    public int v;
    public Link next;

    public Link(int v, Link next) {
      this.v = v;
      this.next = next;
    }
  }
}
