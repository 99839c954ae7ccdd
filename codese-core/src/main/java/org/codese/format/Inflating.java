package org.codese.format;

import java.util.Arrays;
import java.util.zip.Inflater;
import org.codese.CorruptSnapshotException;

/**
 * Inflating DEFLATE data into a buffer of a length checked beforehand: the code section of a packed
 * snapshot ({@link Packed}) and the data of a compression envelope ({@link Compression}). Apart
 * from {@link Compression} so that reading an uncompressed snapshot does not load the envelope's
 * code (its writer half among it): every class costs a cold load about a quarter of a millisecond.
 */
final class Inflating {
  /** The first output buffer holds at most this many bytes unless the data's size says more. */
  private static final int FIRST_BUFFER = 1 << 16;

  private Inflating() {}

  /**
   * Inflates zlib data whose uncompressed length the caller has checked already: the output buffer
   * grows only as data actually inflates, never past {@code length}.
   *
   * @param source holds the data
   * @param offset where the data starts in {@code source}
   * @param data how many bytes of data there are
   * @param length the declared uncompressed length, at most {@link Compression#MAX_RATIO} times
   *     {@code data} plus {@link Compression#MAX_RATIO}
   * @param section the section messages name
   * @param base where {@code source} starts in the file, for the offsets messages name
   * @param declarer what declared the length, for messages ("the envelope")
   * @param dictionary {@code null} for a zlib stream, which may not ask for a preset dictionary;
   *     else the data is raw DEFLATE data made with this preset dictionary
   * @return exactly {@code length} bytes
   * @throws CorruptSnapshotException if the data is not valid zlib (or DEFLATE) data, inflates to
   *     more or fewer bytes than declared, ends early, asks for a preset dictionary or is followed
   *     by other bytes
   */
  static byte[] inflate(
      byte[] source,
      int offset,
      int data,
      int length,
      String section,
      long base,
      String declarer,
      byte[] dictionary)
      throws CorruptSnapshotException {
    byte[] out = new byte[(int) Math.min(length, Math.max(FIRST_BUFFER, 4L * data))];
    int pos = 0;
    Inflater inflater = new Inflater(dictionary != null);
    try {
      if (dictionary != null) {
        inflater.setDictionary(dictionary);
      }
      inflater.setInput(source, offset, data);
      long consumed = 0;
      while (true) {
        int n;
        if (pos < out.length) {
          n = inflater.inflate(out, pos, out.length - pos);
        } else if (out.length < length) {
          out = Arrays.copyOf(out, (int) Math.min(length, 2L * out.length));
          continue;
        } else {
          byte[] probe = new byte[1];
          n = inflater.inflate(probe, 0, 1);
          if (n > 0) {
            throw new CorruptSnapshotException(
                section,
                base + offset + inflater.getBytesRead(),
                "the data inflates to more than the "
                    + length
                    + " bytes "
                    + declarer
                    + " declares (a false length, or a compression bomb);"
                    + " inflating stopped there");
          }
        }
        pos += n;
        if (inflater.finished()) {
          break;
        }
        long read = inflater.getBytesRead();
        if (n == 0 && read == consumed) {
          if (inflater.needsDictionary()) {
            throw new CorruptSnapshotException(
                section,
                base + offset,
                "the compressed data asks for a preset dictionary, which Codese never uses in a"
                    + " zlib stream");
          }
          // Out of input, read is all of the data. With input and room left, zlib always reads,
          // writes or fails: the second message guards the loop against an inflater that did not.
          String problem;
          if (inflater.needsInput()) {
            problem =
                "the compressed data ends after "
                    + data
                    + " bytes, before its end mark, having inflated to "
                    + pos
                    + " of "
                    + length
                    + " bytes: truncated";
          } else {
            problem = "the compressed data stops inflating after " + pos + " bytes";
          }
          throw new CorruptSnapshotException(section, base + offset + read, problem);
        }
        consumed = read;
      }
      if (pos != length) {
        throw new CorruptSnapshotException(
            section,
            base + offset + inflater.getBytesRead(),
            "the data inflates to "
                + pos
                + " bytes, but "
                + declarer
                + " declares "
                + length
                + " (a false length)");
      }
      int trailing = inflater.getRemaining();
      if (trailing != 0) {
        throw new CorruptSnapshotException(
            section,
            base + offset + data - trailing,
            trailing + " unexpected bytes after the end of the compressed data");
      }
    } catch (RuntimeException | CorruptSnapshotException e) {
      throw e;
    } catch (Exception e) {
      // the inflater's DataFormatException, the one other exception the block throws: not caught by
      // name, whose class (of the runtime image) the verifier would load on every load
      throw new CorruptSnapshotException(
          section,
          base + offset + inflater.getBytesRead(),
          "not valid zlib/DEFLATE data (" + e.getMessage() + ")");
    } finally {
      inflater.end();
    }
    return out;
  }
}
