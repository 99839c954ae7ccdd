package org.codese;

/**
 * Receives the restore program of a snapshot as {@link SnapshotContents#list} decodes it, in the
 * order it would run, as Java-like text: {@code oN} is the object in slot {@code N} of the restore
 * table, values are Java literals (long strings and arrays shortened). Every method does nothing by
 * default. A listener may stop the listing by throwing an unchecked exception.
 */
public interface ProgramListener {
  /**
   * A segment starts (the one segment of a snapshot, or the next of a stream).
   *
   * @param index its index among the file's segments
   * @param segment the segment
   */
  default void segment(int index, SnapshotSegment segment) {}

  /**
   * A generated class of the segment starts.
   *
   * @param index its index among the segment's class files
   * @param name its binary name
   * @param phase when it runs: {@code create} (makes the objects), {@code set} (sets their fields)
   *     or {@code finish} (runs their own methods, such as {@code readObject})
   * @param nestHost the binary name of the user class it is a nestmate of (to set private fields
   *     directly), or {@code null}
   */
  default void generatedClass(int index, String name, String phase, String nestHost) {}

  /**
   * A counted loop starts; its statements follow, unrolled.
   *
   * @param iterations how often it runs, or -1 if that is not known
   */
  default void loop(int iterations) {}

  /**
   * An object is created.
   *
   * @param object its slot in the restore table
   * @param type its binary class name ({@code java.util.HashMap}, {@code [I})
   * @param expression how, such as {@code new HashMap()} or {@code "text"}
   */
  default void create(int object, String type, String expression) {}

  /**
   * A global reference is stored (snapshot format 6 on): not an object the program creates, but the
   * value of a static final field ({@code CodeseOptions.withStaticConstants}) or an object the load
   * options name ({@code CodeseOptions.withGlobal}), whose class the file does not record. By
   * default reported as {@link #create} of a {@code java.lang.Object}.
   *
   * @param object its slot in the restore table
   * @param owner the binary name of the class whose static final field it is, or {@code null} for a
   *     named global
   * @param name the field's name, or the global's name
   * @param expression how: {@code Holder.KEY} or {@code global("name")}, with a comment that says
   *     which kind
   */
  default void global(int object, String owner, String name, String expression) {
    create(object, "java.lang.Object", expression);
  }

  /**
   * A field is set.
   *
   * @param object the slot of the object whose field is set
   * @param type its binary class name, or {@code null} if the program has not created it yet
   * @param field the field's name
   * @param value the value: a literal, {@code oN} or {@code null}
   * @param reference whether the field holds a reference
   * @param nonDefault whether the value is other than {@code null}, zero or {@code false}
   */
  default void field(
      int object, String type, String field, String value, boolean reference, boolean nonDefault) {}

  /**
   * An array element is set.
   *
   * @param object the slot of the array
   * @param type its binary class name, or {@code null} if the program has not created it yet
   * @param index the element's index
   * @param value the value: a literal, {@code oN} or {@code null}
   * @param reference whether the array holds references
   * @param nonDefault whether the value is other than {@code null}, zero or {@code false}
   */
  default void element(
      int object, String type, int index, String value, boolean reference, boolean nonDefault) {}

  /**
   * A class's own method runs on an object ({@code readObject}, {@code readExternal}, {@code
   * readResolve}), or a record's canonical constructor (then reported as {@link #create} first, and
   * {@code statement} is {@code null}).
   *
   * @param object the slot of the object
   * @param type its binary class name, or {@code null} if the program has not created it yet
   * @param statement the call with what it reads, such as {@code o3.readObject(fields{x=1}, o4);},
   *     or {@code null}
   * @param references how many non-null reference field values it reads from default-field records
   * @param primitives how many non-zero primitive field values it reads from them
   */
  default void hook(int object, String type, String statement, int references, int primitives) {}

  /**
   * A JDK collection is filled through its public API (snapshot format 4 on), where its {@code
   * readObject} would have run.
   *
   * @param object the slot of the collection
   * @param type its binary class name, or {@code null} if the program has not created it yet
   * @param statement the fill, such as {@code o3.put(o4, o5); // and 9 more}
   * @param references how many non-null references it is filled with
   */
  default void fill(int object, String type, String statement, int references) {}

  /**
   * A segment ends.
   *
   * @param index its index among the file's segments
   * @param segment the segment
   */
  default void end(int index, SnapshotSegment segment) {}
}
