package org.codese.emit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.codese.plan.Plan;
import org.codese.plan.Section;
import org.codese.program.RuntimeContract;

/**
 * The class files of recent plans, by what they are made from: a capture whose plan has the same
 * sections (ops and hosts) as a recent one gets that plan's class files without running ASM again.
 * Like graphs planned alike (an object stream's segments, a state captured again after a small
 * change) differ in their data constants, not in their ops, so their code is made once.
 *
 * <p>What {@link Emitter#emit} makes depends on the plan's sections, the names of the classes that
 * host them and the runtime contract, and on nothing else: those are the key. The returned class
 * files are shared between snapshots and must not be modified. Thread-safe; holds at most {@link
 * #CAPACITY} plans' code, the least recently used dropped first.
 */
public final class CodeCache {
  /** How many plans' class files are kept. */
  static final int CAPACITY = 64;

  /** Plans with more ops than this are emitted without the cache: their key costs as much. */
  static final int MAX_CACHED_OPS = 4_096;

  private static final Map<Key, Emitted> RECENT =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Emitted> eldest) {
          return size() > CAPACITY;
        }
      };

  private CodeCache() {}

  /** What the emitted code depends on. */
  private record Key(List<Section> sections, List<String> hosts, RuntimeContract contract) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key x
          && Objects.equals(sections, x.sections)
          && Objects.equals(hosts, x.hosts)
          && Objects.equals(contract, x.contract);
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(sections);
      h = 31 * h + Objects.hashCode(hosts);
      h = 31 * h + Objects.hashCode(contract);
      return h;
    }
  }

  /**
   * The class files of {@code plan}: those of an earlier plan with the same key, or made now.
   *
   * @param plan the restore program
   * @return its class files, equal to what {@link Emitter#emit} makes of it
   */
  public static Emitted emit(Plan plan) {
    int ops = 0;
    List<String> hosts = new ArrayList<>();
    for (Section s : plan.sections()) {
      ops += s.ops().size();
      hosts.add(s.host() < 0 ? null : plan.classes().get(s.host()).name());
    }
    if (ops > MAX_CACHED_OPS) {
      return Emitter.emit(plan);
    }
    Key key = new Key(plan.sections(), hosts, RuntimeContract.current());
    synchronized (RECENT) {
      Emitted known = RECENT.get(key);
      if (known != null) {
        return known;
      }
    }
    Emitted made = Emitter.emit(plan);
    synchronized (RECENT) {
      RECENT.put(key, made);
    }
    return made;
  }
}
