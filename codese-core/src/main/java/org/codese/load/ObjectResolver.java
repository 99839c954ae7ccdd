package org.codese.load;

import java.io.IOException;

/** An object stream's {@code resolveObject}, as a reader of Codese data calls it. */
public interface ObjectResolver {
  /**
   * @param obj an object read, after its {@code readResolve}
   * @return the object the stream returns and later references get instead, or {@code obj}
   * @throws IOException as the stream's method throws it
   */
  Object resolveObject(Object obj) throws IOException;
}
