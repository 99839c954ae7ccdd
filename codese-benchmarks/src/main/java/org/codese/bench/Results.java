package org.codese.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything one run measured, in memory; {@link Report} writes it out. */
final class Results {
  /** one capture of one graph by one peer */
  static final class Capture {
    String status;
    double firstMs;

    /**
     * median of the captures repeated for at least 1 s in the first call's JVM: mostly before the
     * JIT is done with the capture code
     */
    double earlyMs;

    int earlyRuns;

    /** warm steady state from JMH ({@code WarmCapture}), ms per capture; NaN if not timed */
    double warmMs = Double.NaN;

    /** JMH's 99.9% error of {@link #warmMs} */
    double warmError = Double.NaN;

    long bytes;
    long gzipBytes;

    /**
     * the size of the peer's own compressed form ({@link
     * org.codese.bench.peers.Peer#captureCompressed}), -1 if none
     */
    long compressedBytes = -1;

    String message = "";
  }

  /** one warm (JMH) result */
  static final class Warm {
    double usPerOp;
    double error;
    double allocBytesPerOp = Double.NaN;
  }

  /** one memory sample */
  static final class Memory {
    long heapBefore;
    long heapPeak;
    long metaBefore;
    long metaPeak;
    long classes;
    long allocated;
  }

  final List<String> graphs = new ArrayList<>();
  final Map<String, String> peerConfigs = new LinkedHashMap<>();
  final Map<String, long[]> stats = new LinkedHashMap<>();
  final Map<String, Map<String, Capture>> captures = new LinkedHashMap<>();
  final Map<String, Map<String, String>> verdicts = new LinkedHashMap<>();

  /** key graph|peer|d to cumulative ms, one per fresh JVM */
  final Map<String, List<Double>> fresh = new LinkedHashMap<>();

  /** key graph|peer to whole-process wall ms of the #d=1 JVMs */
  final Map<String, List<Double>> wall = new LinkedHashMap<>();

  final Map<String, Warm> warm = new LinkedHashMap<>();
  final Map<String, Memory> memory = new LinkedHashMap<>();

  /** peer to (restores, cumulative ms) */
  final Map<String, List<double[]>> curve = new LinkedHashMap<>();

  final List<String> errors = new ArrayList<>();

  /** graph-peer pairs that failed and are not in known-failures.txt */
  final List<String> unexpected = new ArrayList<>();

  /** pairs listed in known-failures.txt that passed */
  final List<String> nowPassing = new ArrayList<>();

  String curveGraph;

  /** {@link StreamCase}: peer to bytes of the file, write ms, checksum of the objects read */
  final Map<String, double[]> streamFiles = new LinkedHashMap<>();

  /** {@link StreamCase}: peer to read ms, one per fresh JVM */
  final Map<String, List<Double>> streamReads = new LinkedHashMap<>();

  /** {@link FixtureCase}: the number of tests per run */
  int fixtureTests;

  /** {@link FixtureCase}: variant to total ms, one per fresh JVM */
  final Map<String, List<Double>> fixtureRuns = new LinkedHashMap<>();

  /** {@link ModelChecker}: the scenario's size, null if it did not run */
  ModelChecker.Plan checkerPlan;

  /** {@link ModelChecker}: peer to its outcome */
  final Map<String, ModelChecker.Outcome> checker = new LinkedHashMap<>();

  static String key(String graph, String peer) {
    return graph + "|" + peer;
  }

  static String key(String graph, String peer, int d) {
    return graph + "|" + peer + "|" + d;
  }

  Map<String, String> verdicts(String graph) {
    return verdicts.getOrDefault(graph, Collections.emptyMap());
  }

  boolean ok(String graph, String peer) {
    String v = verdicts(graph).get(peer);
    return v != null && v.startsWith("ok");
  }

  static double median(List<Double> xs) {
    if (xs == null || xs.isEmpty()) {
      return Double.NaN;
    }
    List<Double> s = new ArrayList<>(xs);
    Collections.sort(s);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  double freshMedian(String graph, String peer, int d) {
    return median(fresh.get(key(graph, peer, d)));
  }
}
