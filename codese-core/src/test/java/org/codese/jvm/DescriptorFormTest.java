package org.codese.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The JDK's form of class descriptors, as object streams of format 5 record them: the form is the
 * JDK's own bytes, reads back into the descriptor {@code ObjectInputStream.readClassDescriptor}
 * would give (name, {@code serialVersionUID}, fields, no local class), is measured exactly, and a
 * damaged form is refused without harming the next read.
 */
class DescriptorFormTest {
  /** Two fields of one object type: the second type string is a reference in the JDK's form. */
  static final class TwoStrings implements Serializable {
    private static final long serialVersionUID = 5L;
    String a;
    String b;
    int n;
    long[] longs;
  }

  /** No declared serialVersionUID: the form holds the computed one. */
  static final class NoSuid implements Serializable {
    double d;
  }

  /** With writeObject: the form's flags say so. */
  static final class Written implements Serializable {
    private static final long serialVersionUID = 1L;

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
    }
  }

  /** Externalizable. */
  public static final class Ext implements Externalizable {
    private static final long serialVersionUID = 1L;

    public Ext() {}

    @Override
    public void writeExternal(ObjectOutput out) {}

    @Override
    public void readExternal(ObjectInput in) {}
  }

  record Rec(int x, String y) implements Serializable {}

  static final List<Class<?>> CLASSES =
      List.of(
          String.class,
          Integer.class,
          Number.class,
          HashMap.class,
          ArrayList.class,
          TimeUnit.class,
          Enum.class,
          int[].class,
          String[][].class,
          TwoStrings.class,
          NoSuid.class,
          Written.class,
          Ext.class,
          Rec.class,
          Object.class,
          int.class);

  /** The bytes a JDK stream holds for {@code c}'s descriptor, after its header and tag. */
  private static byte[] jdkStream(Class<?> c) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(ObjectStreamClass.lookupAny(c));
    }
    return bytes.toByteArray();
  }

  @Test
  void theFormIsTheJdksOwnAndReadsBackAsTheJdksDescriptor() throws Exception {
    DescriptorForm.Reader reader = new DescriptorForm.Reader();
    for (Class<?> c : CLASSES) {
      byte[] form = DescriptorForm.of(c);
      byte[] stream = jdkStream(c);
      byte[] start = java.util.Arrays.copyOfRange(stream, 5, 5 + form.length);
      assertArrayEquals(start, form, c.getName());
      assertEquals(0x78, stream[5 + form.length] & 0xFF, c + ": TC_ENDBLOCKDATA follows");
      assertEquals(form.length, DescriptorForm.length(form, 0, form.length), c.getName());
      assertSame(form, DescriptorForm.of(c), "made once per class");
      ObjectStreamClass read = reader.read(form);
      ObjectStreamClass own = ObjectStreamClass.lookupAny(c);
      assertEquals(c.getName(), read.getName());
      assertEquals(own.getSerialVersionUID(), read.getSerialVersionUID(), c.getName());
      assertNull(read.forClass(), "a descriptor without a local class, as the JDK's reader gives");
      assertEquals(fields(own), fields(read), c.getName());
    }
  }

  private static List<String> fields(ObjectStreamClass d) {
    List<String> f = new ArrayList<>();
    for (ObjectStreamField x : d.getFields()) {
      f.add(x.getTypeCode() + " " + x.getName() + " " + x.getTypeString());
    }
    return f;
  }

  @Test
  void aShortenedFormIsNotAForm() throws Exception {
    for (Class<?> c : List.of(TwoStrings.class, HashMap.class, Rec.class)) {
      byte[] form = DescriptorForm.of(c);
      for (int cut = 0; cut < form.length; cut++) {
        assertEquals(-1, DescriptorForm.length(form, 0, cut), c + " cut at " + cut);
      }
    }
  }

  @Test
  void aDamagedFormIsRefusedAndTheNextOneStillReads() throws Exception {
    DescriptorForm.Reader reader = new DescriptorForm.Reader();
    byte[] form = DescriptorForm.of(TwoStrings.class);
    byte[] cut = java.util.Arrays.copyOf(form, form.length - 3);
    assertThrows(IOException.class, () -> reader.read(cut));
    byte[] conflicting = DescriptorForm.of("x.Y", 0L, new String[] {"f"}, new String[] {"Q"});
    assertThrows(IOException.class, () -> reader.read(conflicting));
    assertEquals(TwoStrings.class.getName(), reader.read(form).getName());
  }

  @Test
  void aFormMadeFromAClassEntryReadsBack() throws Exception {
    byte[] form =
        DescriptorForm.of(
            "com.example.Gone",
            42L,
            new String[] {"n", "s", "arr"},
            new String[] {"I", "Ljava/lang/String;", "[J"});
    assertEquals(form.length, DescriptorForm.length(form, 0, form.length));
    ObjectStreamClass d = new DescriptorForm.Reader().read(form);
    assertEquals("com.example.Gone", d.getName());
    assertEquals(42L, d.getSerialVersionUID());
    assertEquals(List.of("I n null", "L s Ljava/lang/String;", "[ arr [J"), fields(d));
  }
}
