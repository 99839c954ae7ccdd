package org.codese.load;

import java.io.ObjectInputFilter;
import java.lang.invoke.MethodHandle;
import org.codese.jvm.Slot;
import org.codese.program.Constant.HookKind;
import org.codese.program.Tape;

/**
 * A resolved hook constant: what {@link HookRuns#run} does for one object.
 *
 * @param kind which hook
 * @param id the object's table index
 * @param tape the data the hook reads, or {@code null}
 * @param slot the slot (for {@code SLOT} and {@code RECORD}), or {@code null}
 * @param resolve {@code readResolve} for {@code RESOLVE}, of type {@code (Object)Object}, else
 *     {@code null}
 * @param record how to make the record for {@code RECORD}, else {@code null}
 * @param filter the serialization filter the snapshot was loaded under, or {@code null}; asked, as
 *     {@code ObjectInputStream} asks its filter, about every array the class's own {@code
 *     readObject} or {@code readExternal} checks before allocating it ({@link ReplayStream})
 * @param maxArrayLength the longest such array the limits allow ({@code
 *     CodeseLimits.maxArrayLength})
 * @param checksArrays whether the method that reads is the JDK's own {@code readObject} or {@code
 *     readExternal}: only those reach {@code ObjectInputStream.checkArray} and need the filter
 *     (decided once per hook at load, not per restore)
 */
record HookCall(
    HookKind kind,
    int id,
    Tape tape,
    Slot slot,
    MethodHandle resolve,
    RecordMaker record,
    ObjectInputFilter filter,
    int maxArrayLength,
    boolean checksArrays) {}
