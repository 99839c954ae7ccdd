package org.codese;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import org.codese.format.SnapshotFile;
import org.codese.jvm.Types;
import org.codese.load.AllowList;
import org.codese.load.LoadedSnapshot;
import org.codese.program.ClassEntry;
import org.codese.program.Tape;
import org.codese.verify.GrammarCheck;

/**
 * One snapshot of a {@link SnapshotContents}: the whole of a snapshot file, or one segment of an
 * object stream (what one {@code writeObject} call wrote). Immutable; read without running or
 * defining any of its code.
 */
public final class SnapshotSegment implements SnapshotContents.Part {
  /** The names of the sections, in file order. */
  final SnapshotFile file;

  private final long offset;
  private final int length;
  private final List<ClassInfo> classes;
  private final List<Item> items;

  SnapshotSegment(SnapshotFile file, long offset, int length) {
    this.file = file;
    this.offset = offset;
    this.length = length;
    List<ClassInfo> c = new ArrayList<>();
    for (ClassEntry e : file.classes()) {
      c.add(ClassInfo.of(e));
    }
    this.classes = List.copyOf(c);
    this.items = Item.of(file.items());
  }

  /**
   * A class the snapshot names, with the fingerprint a load checks against the live class.
   *
   * @param name the binary name ({@code java.util.ArrayList}, {@code [I}, {@code int})
   * @param serialVersionUID the {@code serialVersionUID} the class declared at capture, or empty if
   *     it declared none (or none is checked)
   * @param fields the serializable fields the snapshot relies on, in serialization order; empty for
   *     classes whose fields it does not set
   * @param proxyInterfaces for a dynamic proxy class, the names of the interfaces a load makes it
   *     for again (its {@code name} is then the name it had at capture, which a load does not use);
   *     {@code null} for any other class
   */
  public record ClassInfo(
      String name,
      OptionalLong serialVersionUID,
      List<FieldInfo> fields,
      List<String> proxyInterfaces) {
    /**
     * Checks the components.
     *
     * @param name the binary name
     * @param serialVersionUID the declared {@code serialVersionUID}, or empty
     * @param fields the serializable fields, in serialization order
     * @param proxyInterfaces a proxy class's interface names, or {@code null}
     * @throws NullPointerException if an argument other than {@code proxyInterfaces} is null
     */
    public ClassInfo {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(serialVersionUID, "serialVersionUID");
      fields = List.copyOf(fields);
      proxyInterfaces = proxyInterfaces == null ? null : List.copyOf(proxyInterfaces);
    }

    /**
     * A class that is not a dynamic proxy class.
     *
     * @param name the binary name
     * @param serialVersionUID the declared {@code serialVersionUID}, or empty
     * @param fields the serializable fields, in serialization order
     * @throws NullPointerException if an argument is null
     */
    public ClassInfo(String name, OptionalLong serialVersionUID, List<FieldInfo> fields) {
      this(name, serialVersionUID, fields, null);
    }

    /**
     * Returns whether this is a dynamic proxy class.
     *
     * @return whether this is a dynamic proxy class, made again on load from {@link
     *     #proxyInterfaces()}
     */
    public boolean isProxy() {
      return proxyInterfaces != null;
    }

    static ClassInfo of(ClassEntry e) {
      List<FieldInfo> f = new ArrayList<>();
      for (ClassEntry.FieldEntry x : e.fields()) {
        f.add(new FieldInfo(x.name(), x.descriptor(), x.real()));
      }
      return new ClassInfo(
          e.name(),
          e.hasSuid() ? OptionalLong.of(e.suid()) : OptionalLong.empty(),
          f,
          e.interfaces());
    }

    /**
     * Returns whether this names a primitive type.
     *
     * @return whether this names a primitive type ({@code int}, {@code void}), such as a snapshot
     *     holding {@code int.class} names
     */
    public boolean isPrimitive() {
      return !isProxy() && Types.primitiveNamed(name) != null;
    }
  }

  /**
   * A serializable field of a class.
   *
   * @param name the field's name
   * @param descriptor its JVM type descriptor ({@code I}, {@code Ljava/lang/String;})
   * @param declared whether the class declared the field at capture (false for a {@code
   *     serialPersistentFields} entry without a matching field)
   */
  public record FieldInfo(String name, String descriptor, boolean declared) {
    /**
     * Checks the components.
     *
     * @param name the field's name
     * @param descriptor its JVM type descriptor
     * @param declared whether the class declared it
     * @throws NullPointerException if an argument is null
     */
    public FieldInfo {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(descriptor, "descriptor");
    }

    /**
     * Returns whether the field is of a primitive type.
     *
     * @return whether the field is of a primitive type
     */
    public boolean isPrimitive() {
      return descriptor.length() == 1;
    }
  }

  /**
   * A top-level item of the segment, in the order a reader reads them.
   *
   * @param kind what the item is
   * @param value for {@link Kind#OBJECT} and {@link Kind#BACK_REFERENCE} the object's number in the
   *     restore table (-1 for {@code null}); for {@link Kind#DATA} the length in bytes
   */
  public record Item(Kind kind, int value) {
    /** The kinds of items. */
    public enum Kind {
      /** An object, read with {@code readObject}. */
      OBJECT,
      /** A block of primitive data, read with the {@code DataInput} methods. */
      DATA,
      /**
       * An object an earlier {@code writeObject} call wrote that the next object refers to (for
       * {@code readUnshared}); not an item a reader reads.
       */
      BACK_REFERENCE
    }

    /**
     * Checks the components.
     *
     * @param kind what the item is
     * @param value the object's slot or the data's length
     * @throws NullPointerException if {@code kind} is null
     */
    public Item {
      Objects.requireNonNull(kind, "kind");
    }

    static List<Item> of(Tape tape) {
      List<Item> out = new ArrayList<>();
      int[] items = tape.items();
      for (int i = 0; i + 1 < items.length; i += 2) {
        if (items[i] == Tape.BLOCK) {
          out.add(new Item(Kind.DATA, items[i + 1]));
        } else if (items[i] == Tape.BACK_REFERENCE) {
          out.add(new Item(Kind.BACK_REFERENCE, items[i + 1]));
        } else if (items[i] == Tape.OBJECT) {
          out.add(new Item(Kind.OBJECT, items[i + 1]));
        }
      }
      return List.copyOf(out);
    }
  }

  /**
   * Returns the segment's first byte in the file.
   *
   * @return the segment's first byte in the file
   */
  public long offset() {
    return offset;
  }

  /**
   * Returns the segment's length in bytes.
   *
   * @return the segment's length in bytes, as stored in the file
   */
  public int length() {
    return length;
  }

  /**
   * Returns the snapshot format version it is written in.
   *
   * @return the snapshot format version it is written in
   */
  public int formatVersion() {
    return file.version();
  }

  /**
   * Returns the version of the JDK that captured it.
   *
   * @return the version of the JDK that captured it ({@code 17.0.12}), or the empty string where
   *     the file does not record it (segments of object streams)
   */
  public String jdk() {
    return file.jdk();
  }

  /**
   * Returns the number in the restore table of the first object it creates: 0 for a snapshot.
   *
   * @return the number in the restore table of the first object it creates: 0 for a snapshot, the
   *     number of objects earlier segments created for a segment of a stream
   */
  public int firstObject() {
    return file.firstId();
  }

  /**
   * Returns the number of objects it creates.
   *
   * @return the number of objects it creates
   */
  public int objectCount() {
    return file.tableSize() - file.firstId();
  }

  /**
   * Returns the payload size in bytes of each section.
   *
   * @return the payload size in bytes of each section, by name in file order: {@code header},
   *     {@code classes}, {@code constants}, {@code code} (the generated class files) and {@code
   *     items}; from format version 9 on, the class table travels compressed with the class files,
   *     counted in {@code code}, and is given as 0
   */
  public Map<String, Integer> sectionSizes() {
    return file.sectionSizes();
  }

  /**
   * Returns the classes it names.
   *
   * @return the classes it names, in the order of its class table
   */
  public List<ClassInfo> classes() {
    return classes;
  }

  /**
   * Returns copies of its generated class files.
   *
   * @return copies of its generated class files, in the order they run
   */
  public List<byte[]> classFiles() {
    List<byte[]> out = new ArrayList<>();
    for (byte[] c : file.classFiles()) {
      out.add(c.clone());
    }
    return out;
  }

  /**
   * Returns its top-level items.
   *
   * @return its top-level items, in the order a reader reads them
   */
  public List<Item> items() {
    return items;
  }

  /**
   * Checks that the generated code follows the restore grammar, without the classes it names.
   *
   * @return the violations, one line each; empty if every class follows the grammar
   */
  public List<String> grammarViolations() {
    return GrammarCheck.violations(file);
  }

  /**
   * Runs every check a load runs before it defines any code (grammar, limits, class fingerprints,
   * filter, constants, what the program does), against the classes of the options' class loader,
   * and defines and runs nothing.
   *
   * @param options the class loader, limits and allowed classes a load would use; the signing key
   *     and filter are not used
   * @return the binary names of the classes removed since capture from the hierarchy of some of its
   *     objects only (other objects are of the class itself, or it was made final), whose data a
   *     load skips in those objects, as {@code ObjectInputStream} skips it; empty if none
   * @throws ClassMismatchException if a class it names is missing or changed
   * @throws ClassNotAllowedException if it needs classes the options do not admit
   * @throws UnsafeSnapshotException if its program does what a load refuses
   * @throws IOException if the check fails for another reason, as a load would
   */
  public Set<String> check(CodeseOptions options) throws IOException {
    return LoadedSnapshot.check(file, options.classLoader(), options.limits(), options.allowList());
  }

  /**
   * As {@link #check}, also returning the objects a load does not make: objects of a class the
   * loader no longer finds that only skipped data refers to (a removed field, the fields or {@code
   * writeObject} data of a superclass removed since capture), which {@code ObjectInputStream} never
   * makes either.
   *
   * @param options as for {@link #check}
   * @return per binary name of such a class, the number of its objects not made; and, as {@link
   *     #check} returns them, the classes whose data a load skips per object
   * @throws IOException as {@link #check}
   */
  public Changes checkChanges(CodeseOptions options) throws IOException {
    LoadedSnapshot.Changes c =
        LoadedSnapshot.checkChanges(
            file, options.classLoader(), options.limits(), options.allowList());
    return new Changes(c.droppedPerObject(), c.notMade());
  }

  /**
   * What {@link #checkChanges} found.
   *
   * @param removedPerObject the classes whose data a load skips per object, as {@link #check}
   *     returns them
   * @param notMade per binary name of a class not found, the number of its objects a load does not
   *     make; empty if none
   */
  public record Changes(Set<String> removedPerObject, Map<String, Integer> notMade) {}

  /**
   * The superclasses removed since capture from the hierarchy of the objects it holds (the
   * serialization specification's section 5.6.2, "removing classes"), as a load decides them: a
   * class whose data it carries of which no object it allocates is an instance now, or a class the
   * loader no longer finds that it names only where it carries the class's data. A load reads and
   * skips their data, as {@code ObjectInputStream} does. Initialises no class.
   *
   * @param loader the loader for the classes it names; classes are loaded without initialising
   * @return binary name to whether the loader still finds the class, in class-table order; empty if
   *     none
   * @throws ClassMismatchException if a class is not found where a load needs it
   */
  public Map<String, Boolean> removedSuperclasses(ClassLoader loader)
      throws ClassMismatchException {
    return LoadedSnapshot.removedSuperclasses(file, loader);
  }

  /**
   * The classes it needs admitted with {@link CodeseOptions#withAllowedClasses} to load, as {@link
   * Codese#classesToAllow} computes them; classes the loader does not find are left out.
   *
   * @param loader the loader for the classes it names; classes are loaded without initialising
   * @return binary class names, sorted
   * @throws ClassMismatchException if it gives a class a role no snapshot Codese writes gives it
   */
  public List<String> classesToAllow(ClassLoader loader) throws ClassMismatchException {
    Class<?>[] found = new Class<?>[classes.size()];
    for (int i = 0; i < found.length; i++) {
      found[i] = load(classes.get(i).name(), loader);
    }
    return AllowList.neededBy(file, found);
  }

  private static Class<?> load(String name, ClassLoader loader) {
    Class<?> p = Types.primitiveNamed(name);
    if (p != null) {
      return p;
    }
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }
}
