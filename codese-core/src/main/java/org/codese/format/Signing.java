package org.codese.format;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.codese.AuthenticityException;

/**
 * The optional signature envelope: magic {@code "CDSG"}, version (u2), the 32-byte HMAC-SHA256 of
 * the snapshot under the key, then the snapshot. The MAC is checked, in constant time, before the
 * snapshot is parsed.
 */
public final class Signing {
  /** The envelope's magic number, {@code "CDSG"} in ASCII. */
  public static final int MAGIC = 0x43445347;

  private static final int VERSION = 1;
  private static final int MAC_BYTES = 32;

  /** The envelope's header: magic, version and MAC, before the snapshot it holds. */
  public static final int HEADER = 4 + 2 + MAC_BYTES;

  private static final String ALGORITHM = "HmacSHA256";

  private Signing() {}

  /**
   * @param snapshot the snapshot bytes
   * @param key the HMAC key
   * @return the signed envelope
   */
  public static byte[] sign(byte[] snapshot, byte[] key) {
    return ByteBuffer.allocate(HEADER + snapshot.length)
        .putInt(MAGIC)
        .putShort((short) VERSION)
        .put(mac(snapshot, 0, snapshot.length, key))
        .put(snapshot)
        .array();
  }

  /**
   * @return whether {@code bytes} start with the envelope's magic number
   */
  public static boolean isSigned(byte[] bytes) {
    return bytes.length >= 4 && ByteBuffer.wrap(bytes).getInt(0) == MAGIC;
  }

  /**
   * Checks and removes the envelope. With a key, the snapshot must be signed with that key; without
   * one, a signed snapshot is unwrapped unchecked and an unsigned one is returned as it is.
   *
   * @param bytes a snapshot, signed or not
   * @param key the HMAC key, or {@code null}
   * @return the snapshot without envelope
   * @throws AuthenticityException if a key is given and the signature is missing or wrong
   */
  public static byte[] unwrap(byte[] bytes, byte[] key) throws AuthenticityException {
    if (!isSigned(bytes)) {
      if (key != null) {
        throw new AuthenticityException(
            "the snapshot is not signed, but a signing key is"
                + " configured; only snapshots captured with that key are accepted");
      }
      return bytes;
    }
    if (bytes.length < HEADER || ByteBuffer.wrap(bytes).getShort(4) != VERSION) {
      throw new AuthenticityException(
          "the signature envelope is damaged or of an unknown" + " version");
    }
    if (key != null) {
      byte[] expected = mac(bytes, HEADER, bytes.length - HEADER, key);
      byte[] actual = java.util.Arrays.copyOfRange(bytes, 6, HEADER);
      if (!MessageDigest.isEqual(expected, actual)) {
        throw new AuthenticityException(
            "the snapshot's signature does not match the configured"
                + " key: it was signed with another key or changed after signing");
      }
    }
    return java.util.Arrays.copyOfRange(bytes, HEADER, bytes.length);
  }

  private static byte[] mac(byte[] data, int off, int len, byte[] key) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(key, ALGORITHM));
      mac.update(data, off, len);
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required of every JDK", e);
    }
  }
}
