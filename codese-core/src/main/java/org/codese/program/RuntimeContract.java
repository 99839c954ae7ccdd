package org.codese.program;

import java.util.Objects;

/**
 * What the generated code of one snapshot format version names of Codese itself: the package its
 * Codese-hosted classes are defined in, and the classes whose static {@link Grammar#STEPS_METHOD}
 * and {@link Grammar#ALLOCATE_METHOD} it calls. These names are written into every class file of a
 * snapshot, so they are part of the format: a contract is never changed, only added to with a new
 * format version, and the loader keeps the classes every version it reads names.
 *
 * <p>From format version {@link #RUNTIME_VERSION} on, generated code names only the package {@code
 * org.codese.runtime}, which exists for that purpose alone and is never renamed; internal packages
 * may then be renamed freely. Formats 1 and 2 named the loader's package, {@code org.codese.load},
 * and its classes {@code Hooks} and {@code Allocation}, which therefore keep those names.
 *
 * @param version the snapshot format version
 * @param hostPackage the package, in internal form, of generated classes hosted by Codese
 * @param stepsOwner the class, in internal form, whose static {@link Grammar#STEPS_METHOD} runs a
 *     finish program
 * @param allocateOwner the class whose static {@link Grammar#ALLOCATE_METHOD} creates objects, or
 *     {@code null} where the code calls {@code Constructor.newInstance} instead (format 1)
 */
public record RuntimeContract(
    int version, String hostPackage, String stepsOwner, String allocateOwner) {
  @Override
  public boolean equals(Object o) {
    return o instanceof RuntimeContract x
        && version == x.version
        && Objects.equals(hostPackage, x.hostPackage)
        && Objects.equals(stepsOwner, x.stepsOwner)
        && Objects.equals(allocateOwner, x.allocateOwner);
  }

  @Override
  public int hashCode() {
    int h = version;
    h = 31 * h + Objects.hashCode(hostPackage);
    h = 31 * h + Objects.hashCode(stepsOwner);
    h = 31 * h + Objects.hashCode(allocateOwner);
    return h;
  }

  /** The first format version whose code names only {@link #RUNTIME_PACKAGE}. */
  public static final int RUNTIME_VERSION = 3;

  /** The package of the runtime contract from format version {@link #RUNTIME_VERSION} on. */
  public static final String RUNTIME_PACKAGE = "org/codese/runtime";

  /** The package formats 1 and 2 named: the loader's. */
  public static final String LEGACY_PACKAGE = "org/codese/load";

  private static final RuntimeContract[] CONTRACTS = {
    new RuntimeContract(1, LEGACY_PACKAGE, LEGACY_PACKAGE + "/Hooks", null),
    new RuntimeContract(
        Grammar.ALLOCATE_VERSION,
        LEGACY_PACKAGE,
        LEGACY_PACKAGE + "/Hooks",
        LEGACY_PACKAGE + "/Allocation"),
    new RuntimeContract(
        RUNTIME_VERSION, RUNTIME_PACKAGE, RUNTIME_PACKAGE + "/Entry", RUNTIME_PACKAGE + "/Entry"),
    // format 4 adds collection fills (data and steps only): the code names what format 3 names
    new RuntimeContract(
        Grammar.FILL_VERSION,
        RUNTIME_PACKAGE,
        RUNTIME_PACKAGE + "/Entry",
        RUNTIME_PACKAGE + "/Entry"),
    // format 5 adds values made from data (a create program step): the code is format 4's
    new RuntimeContract(
        Grammar.VALUE_VERSION,
        RUNTIME_PACKAGE,
        RUNTIME_PACKAGE + "/Entry",
        RUNTIME_PACKAGE + "/Entry"),
    // format 6 adds global references (constants only): the code names what format 3 names
    new RuntimeContract(
        Grammar.GLOBAL_VERSION,
        RUNTIME_PACKAGE,
        RUNTIME_PACKAGE + "/Entry",
        RUNTIME_PACKAGE + "/Entry"),
    // format 7 adds class entries of dynamic proxy classes (class table only): the same code
    new RuntimeContract(
        Grammar.PROXY_VERSION,
        RUNTIME_PACKAGE,
        RUNTIME_PACKAGE + "/Entry",
        RUNTIME_PACKAGE + "/Entry"),
    // format 8 makes collections through newCollection of the same class
    new RuntimeContract(
        Grammar.COLLECTION_VERSION,
        RUNTIME_PACKAGE,
        RUNTIME_PACKAGE + "/Entry",
        RUNTIME_PACKAGE + "/Entry"),
    // format 9 packs class table and class files into one zlib stream with a preset dictionary
    // (the container only, format.SnapshotFile.PACKED_VERSION): the code is format 8's
    new RuntimeContract(
        Grammar.PACKED_VERSION,
        RUNTIME_PACKAGE,
        RUNTIME_PACKAGE + "/Entry",
        RUNTIME_PACKAGE + "/Entry"),
    // format 10 stores fields through FieldStore (setterOwner), not java.lang.reflect.Field
    new RuntimeContract(
        Grammar.STORE_VERSION,
        RUNTIME_PACKAGE,
        RUNTIME_PACKAGE + "/Entry",
        RUNTIME_PACKAGE + "/Entry"),
    // format 11 adds BigInteger values (data only): the code is format 10's
    new RuntimeContract(
        Grammar.BIG_INTEGER_VERSION,
        RUNTIME_PACKAGE,
        RUNTIME_PACKAGE + "/Entry",
        RUNTIME_PACKAGE + "/Entry"),
    // format 12 adds Date and BigDecimal values (data only): the code is format 10's
    new RuntimeContract(
        Grammar.DECIMAL_VERSION,
        RUNTIME_PACKAGE,
        RUNTIME_PACKAGE + "/Entry",
        RUNTIME_PACKAGE + "/Entry"),
    // format 13 adds factory steps (finish program data only): the code is format 10's
    new RuntimeContract(
        Grammar.FACTORY_VERSION,
        RUNTIME_PACKAGE,
        RUNTIME_PACKAGE + "/Entry",
        RUNTIME_PACKAGE + "/Entry")
  };

  /** The setter owner before format {@link Grammar#STORE_VERSION}. */
  public static final String REFLECTIVE_SETTER = "java/lang/reflect/Field";

  /** The setter owner from format {@link Grammar#STORE_VERSION} on. */
  public static final String RUNTIME_SETTER = RUNTIME_PACKAGE + "/FieldStore";

  /** The newest format version with a contract: the one the emitter writes. */
  public static final int NEWEST_VERSION = CONTRACTS.length;

  /**
   * @param version a snapshot format version, 1 to {@link #NEWEST_VERSION}
   * @return its contract
   * @throws IllegalArgumentException for another version
   */
  public static RuntimeContract of(int version) {
    if (version < 1 || version > CONTRACTS.length) {
      throw new IllegalArgumentException(
          "no runtime contract for snapshot format version " + version);
    }
    return CONTRACTS[version - 1];
  }

  /**
   * @return the contract of the code the emitter writes
   */
  public static RuntimeContract current() {
    return CONTRACTS[CONTRACTS.length - 1];
  }

  /**
   * @return whether the code allocates through {@link Grammar#ALLOCATE_METHOD} (format version
   *     {@link Grammar#ALLOCATE_VERSION} on) rather than with {@code Constructor.newInstance}; each
   *     version admits its own form only, since allocator constants resolve differently
   */
  public boolean allocates() {
    return allocateOwner != null;
  }

  /**
   * @return whether the code makes JDK collections through {@link Grammar#NEW_COLLECTION_METHOD} of
   *     {@link #allocateOwner()} and only other objects through {@link Grammar#ALLOCATE_METHOD}
   *     (format version {@link Grammar#COLLECTION_VERSION} on)
   */
  public boolean separatesCollections() {
    return version >= Grammar.COLLECTION_VERSION;
  }

  /**
   * @return the class, in internal form, whose {@code set}, {@code setInt}, ... (the names and
   *     descriptors of {@code java.lang.reflect.Field}'s) the code calls on a setter constant:
   *     {@link #REFLECTIVE_SETTER} before format {@link Grammar#STORE_VERSION}, {@link
   *     #RUNTIME_SETTER} from it on
   */
  public String setterOwner() {
    return version >= Grammar.STORE_VERSION ? RUNTIME_SETTER : REFLECTIVE_SETTER;
  }
}
