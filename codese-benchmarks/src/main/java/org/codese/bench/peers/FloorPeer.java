package org.codese.bench.peers;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.codese.bench.graphs.MediaContent;
import org.codese.samples.RbtFloor;
import org.codese.samples.RedBlackTree;

/**
 * The floor: hand-written code that builds the identical graph directly from plain arrays read once
 * from a file. Exists for the red-black trees and for MediaContent only.
 */
final class FloorPeer implements Peer {
  private static final byte RBT = 'R';
  private static final byte MEDIA = 'M';

  @Override
  public String name() {
    return "floor";
  }

  @Override
  public String config() {
    return "hand-written builder from plain arrays read once (red-black trees, MediaContent only)";
  }

  @Override
  public String extension() {
    return "floor";
  }

  @Override
  public byte[] capture(Object root) throws Exception {
    if (root instanceof RedBlackTree) {
      byte[] body = RbtFloor.encode((RedBlackTree) root);
      byte[] out = new byte[body.length + 1];
      out[0] = RBT;
      System.arraycopy(body, 0, out, 1, body.length);
      return out;
    }
    if (root instanceof MediaContent) {
      return encodeMedia((MediaContent) root);
    }
    throw new NotApplicable("no hand-written floor for " + root.getClass().getName());
  }

  @Override
  public Restorer open(Path file, int threads) throws Exception {
    ByteBuffer bytes = ByteBuffer.wrap(Peer.readFile(file));
    byte tag = bytes.get();
    // named classes, not lambdas: a lambda's bootstrap costs milliseconds in a fresh JVM
    if (tag == RBT) {
      return new RbtRestore(RbtFloor.decode(bytes));
    }
    if (tag == MEDIA) {
      return new MediaArrays(bytes);
    }
    throw new IllegalArgumentException("not a floor file");
  }

  private static byte[] encodeMedia(MediaContent content) throws Exception {
    MediaContent.Media m = content.media;
    // strings: uri, title, format, copyright, persons..., then per image uri and title
    List<String> strings = new ArrayList<>(List.of(m.uri, m.title, m.format));
    strings.add(m.copyright);
    strings.addAll(m.persons);
    for (MediaContent.Image image : content.images) {
      if (image.media != m) {
        throw new NotApplicable("floor expects every image to refer to the one media record");
      }
      strings.add(image.uri);
      strings.add(image.title);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeByte(MEDIA);
    out.writeInt(m.persons.size());
    out.writeInt(content.images.size());
    // strings shared in the graph stay shared: a table of distinct strings, and per slot an index
    java.util.IdentityHashMap<String, Integer> ids = new java.util.IdentityHashMap<>();
    List<String> table = new ArrayList<>();
    int[] slots = new int[strings.size()];
    for (int i = 0; i < slots.length; i++) {
      String s = strings.get(i);
      Integer id = ids.get(s);
      if (id == null) {
        id = table.size();
        ids.put(s, id);
        table.add(s);
      }
      slots[i] = id;
    }
    out.writeInt(slots.length);
    for (int slot : slots) {
      out.writeInt(slot);
    }
    out.writeInt(table.size());
    for (String s : table) {
      if (s == null) {
        out.writeInt(-1);
      } else {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
      }
    }
    out.writeInt(m.width);
    out.writeInt(m.height);
    out.writeLong(m.duration);
    out.writeLong(m.size);
    out.writeInt(m.bitrate);
    out.writeBoolean(m.hasBitrate);
    out.writeInt(m.player == null ? -1 : m.player.ordinal());
    for (MediaContent.Image image : content.images) {
      out.writeInt(image.width);
      out.writeInt(image.height);
      out.writeInt(image.size == null ? -1 : image.size.ordinal());
    }
    out.flush();
    return bytes.toByteArray();
  }

  /** MediaContent as plain arrays, and the code that builds it from them. */
  private static final class RbtRestore implements Restorer {
    private final RbtFloor floor;

    RbtRestore(RbtFloor floor) {
      this.floor = floor;
    }

    @Override
    public Object restore() {
      return floor.build();
    }
  }

  private static final class MediaArrays implements Restorer {
    final int persons;
    final byte[] data;
    final int[] slots;
    final int[] offsets;
    final int[] lengths;
    final int[] ints;
    final long[] longs;
    final boolean hasBitrate;

    MediaArrays(ByteBuffer in) {
      persons = in.getInt();
      int images = in.getInt();
      data = in.array();
      slots = new int[in.getInt()];
      for (int i = 0; i < slots.length; i++) {
        slots[i] = in.getInt();
      }
      offsets = new int[in.getInt()];
      lengths = new int[offsets.length];
      for (int i = 0; i < offsets.length; i++) {
        int len = in.getInt();
        offsets[i] = in.position();
        lengths[i] = len;
        if (len >= 0) {
          in.position(in.position() + len);
        }
      }
      ints = new int[4 + 3 * images];
      longs = new long[2];
      ints[0] = in.getInt();
      ints[1] = in.getInt();
      longs[0] = in.getLong();
      longs[1] = in.getLong();
      ints[2] = in.getInt();
      hasBitrate = in.get() != 0;
      ints[3] = in.getInt();
      for (int i = 0; i < images; i++) {
        ints[4 + 3 * i] = in.getInt();
        ints[5 + 3 * i] = in.getInt();
        ints[6 + 3 * i] = in.getInt();
      }
    }

    @Override
    public Object restore() {
      return build();
    }

    MediaContent build() {
      // new strings per graph, decoded from the bytes; shared slots share one string
      String[] table = new String[offsets.length];
      for (int i = 0; i < table.length; i++) {
        if (lengths[i] >= 0) {
          table[i] = new String(data, offsets[i], lengths[i], StandardCharsets.UTF_8);
        }
      }
      String[] strings = new String[slots.length];
      for (int i = 0; i < slots.length; i++) {
        strings[i] = table[slots[i]];
      }
      MediaContent.Media m = new MediaContent.Media();
      m.uri = strings[0];
      m.title = strings[1];
      m.format = strings[2];
      m.copyright = strings[3];
      ArrayList<String> p = new ArrayList<>(persons);
      for (int i = 0; i < persons; i++) {
        p.add(strings[4 + i]);
      }
      m.persons = p;
      m.width = ints[0];
      m.height = ints[1];
      m.duration = longs[0];
      m.size = longs[1];
      m.bitrate = ints[2];
      m.hasBitrate = hasBitrate;
      m.player = ints[3] < 0 ? null : MediaContent.Player.values()[ints[3]];
      int images = (ints.length - 4) / 3;
      ArrayList<MediaContent.Image> list = new ArrayList<>(images);
      for (int i = 0; i < images; i++) {
        MediaContent.Image image = new MediaContent.Image();
        image.uri = strings[4 + persons + 2 * i];
        image.title = strings[5 + persons + 2 * i];
        image.width = ints[4 + 3 * i];
        image.height = ints[5 + 3 * i];
        int size = ints[6 + 3 * i];
        image.size = size < 0 ? null : MediaContent.Size.values()[size];
        image.media = m;
        list.add(image);
      }
      return new MediaContent(m, list);
    }
  }
}
