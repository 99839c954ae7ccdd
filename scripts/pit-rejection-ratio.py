#!/usr/bin/env python3
"""Per-class PIT figures and the kill ratio over rejection code, from PIT's mutations.csv.

Usage: scripts/pit-rejection-ratio.py codese-core/target/pit-reports/mutations.csv [more.csv]
(after: mvn -B -o -pl codese-core -Pmutation test-compile org.pitest:pitest-maven:mutationCoverage)

Every mutant is put in one of three kinds, by the method it is in (and, for a few lines, by the
line):
  R  rejection code: a mutant that can change whether, when or with which exception type a
     snapshot is rejected (the grammar check, class-file reader, program check, surface,
     fingerprints, constants, limits, filter, allow-list patterns, stream frames, the replay
     stream's data checks, the run-time checks of readResolve results and finish steps);
  M  messages: continuation lines of a string concatenation in rejection code (the source line
     starts with "+" or a string literal), whose mutants change only a message's text; the
     script reads the sources under codese-core/src/main/java, so run it from the repository;
  N  not rejection code: restore mechanics and the replay stream's read methods, threading,
     toString/hashCode, and the instruction whitelist of MethodChecker, which runs only after the
     lifter rejected a chunk and so decides the message, never the outcome.
TIMED_OUT counts as killed (the mutant made a test hang), as PIT counts it.
"""
import collections
import csv
import functools
import os
import sys

NON = {
    'ReplayStream': {'read', 'available', 'readFully', 'next', 'skipBytes', 'readBoolean',
                     'readByte', 'readUnsignedByte', 'readShort', 'readUnsignedShort', 'readChar',
                     'readInt', 'readLong', 'readFloat', 'readDouble', 'readUTF', 'readLine',
                     'close', 'readUnshared', 'registerValidation', 'slot'},
    # the primitive-data reads of a stream built on read(), which stays rejection code (frames)
    'StreamReader': {'readFully', 'available', 'skipBytes'},
    'Parallel': '*', 'Parallel$Workers': '*', 'Parallel$Workers$1': '*', 'RestoreRun': '*',
    'LoadedSnapshot': {'restoreInto', 'restoreRoot', 'file', 'define', '<init>'},
    'Hooks': {'run', 'record', 'component'},
    'AllowList': {'hashCode', 'equals', 'toString', 'with', 'optionsLine', 'patterns',
                  'isEmpty', 'neededBy'},
    'Insn': {'show'}, 'Opcodes': {'name'},
    'Surface': {'doing', 'firstNonSerializable'},
    'MethodChecker': {'checkChunk', 'checkLoop', 'allowed', 'call', 'fieldSetter', 'arrayLength',
                      'fail'},
}
NON_LINES = set()  # (class, line) pairs of rejection-looking code that is not; none at present
SOURCE_ROOT = os.path.join('codese-core', 'src', 'main', 'java')


@functools.lru_cache(maxsize=None)
def source(qualified_class, file_name):
    """The lines of a mutated class's source file, or an empty list where it cannot be read."""
    package = qualified_class.rsplit('.', 1)[0].replace('.', os.sep)
    try:
        with open(os.path.join(SOURCE_ROOT, package, file_name), encoding='utf-8') as fh:
            return fh.read().split('\n')
    except OSError:
        return []


def is_message_line(qualified_class, file_name, line):
    """A continuation line of a string concatenation: its mutants change only a message."""
    lines = source(qualified_class, file_name)
    text = lines[line - 1].strip() if 0 < line <= len(lines) else ''
    return text.startswith('+') or text.startswith('"')


DETECTED = {'KILLED', 'TIMED_OUT', 'MEMORY_ERROR', 'RUN_ERROR'}


def kind(row):
    cls, method, line = row[1].split('.')[-1], row[3], int(row[4])
    if (cls, line) in NON_LINES:
        return 'N'
    n = NON.get(cls)
    if n == '*' or (n and method in n):
        return 'N'
    return 'M' if is_message_line(row[1], row[0], line) else 'R'


def main(files):
    per = collections.defaultdict(collections.Counter)
    kinds = collections.defaultdict(collections.Counter)
    left = []
    for f in files:
        with open(f, newline='') as fh:
            for r in csv.reader(fh):
                cls, method, line, status = r[1].split('.')[-1], r[3], int(r[4]), r[5]
                per[r[1].replace('org.codese.', '')][status] += 1
                k = kind(r)
                kinds[k]['all'] += 1
                if status in DETECTED:
                    kinds[k]['killed'] += 1
                elif k == 'R':
                    left.append(f"{cls}:{line} {method} {r[2].split('.')[-1]} {status}")
    print('| class | mutants | killed | timed out | no coverage | survived |')
    print('|---|---:|---:|---:|---:|---:|')
    total = collections.Counter()
    for c in sorted(per):
        v = per[c]
        total.update(v)
        print(f"| `{c}` | {sum(v.values())} | {v['KILLED']} | {v['TIMED_OUT']} |"
              f" {v['NO_COVERAGE']} | {v['SURVIVED']} |")
    print(f"| all | {sum(total.values())} | {total['KILLED']} | {total['TIMED_OUT']} |"
          f" {total['NO_COVERAGE']} | {total['SURVIVED']} |")
    for k, name in (('R', 'rejection code'), ('M', 'messages'), ('N', 'not rejection code')):
        v = kinds[k]
        if v['all']:
            print(f"{name}: {v['killed']} of {v['all']} killed"
                  f" ({100 * v['killed'] / v['all']:.1f}%)")
    print('rejection-code mutants not killed:')
    for x in sorted(left):
        print('  ' + x)


if __name__ == '__main__':
    main(sys.argv[1:])
