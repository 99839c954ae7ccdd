package org.codese.emit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.codese.plan.Op;
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

  /**
   * What the emitted code depends on. Its hash is made from each section's placement and size and a
   * sample of at most {@link #HASHED_OPS} of its ops, so that a capture of a small graph does not
   * hash every op (a tenth of its time); {@code equals} compares everything.
   */
  private static final class Key {
    /** How many ops of a section, evenly spread, the hash reads. */
    static final int HASHED_OPS = 8;

    final List<Section> sections;
    final List<String> hosts;
    final RuntimeContract contract;
    private final int hash;

    Key(List<Section> sections, List<String> hosts, RuntimeContract contract) {
      this.sections = sections;
      this.hosts = hosts;
      this.contract = contract;
      int h = contract.hashCode();
      for (int i = 0; i < sections.size(); i++) {
        Section s = sections.get(i);
        h = 31 * h + s.placement().hashCode();
        h = 31 * h + Objects.hashCode(hosts.get(i));
        List<Op> ops = s.ops();
        int n = ops.size();
        h = 31 * h + n;
        int step = Math.max(1, n / HASHED_OPS);
        for (int j = 0; j < n; j += step) {
          h = 31 * h + ops.get(j).hashCode();
        }
      }
      this.hash = h;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key x
          && hash == x.hash
          && sections.equals(x.sections)
          && hosts.equals(x.hosts)
          && contract.equals(x.contract);
    }

    @Override
    public int hashCode() {
      return hash;
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
