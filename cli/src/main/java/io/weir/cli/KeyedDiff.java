package io.weir.cli;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares two changelogs of results by key: each side keeps the last value of every key (a null
 * value deletes the key), then keys are equal, changed, only on the left or only on the right.
 * Keys and values compare as bytes. Examples keep the order in which keys were first seen.
 *
 * <p>Not thread-safe: one reader fills a side, then {@link #compare} runs.
 */
final class KeyedDiff {

    /** The last value per key of one topic, in first-seen key order. */
    static final class Side {
        private final Map<ByteBuffer, byte[]> last = new LinkedHashMap<>();
        private long records;

        /** One record; {@code value == null} is a tombstone. Records without a key are skipped. */
        void add(byte[] key, byte[] value) {
            records++;
            if (key == null) {
                return;
            }
            ByteBuffer k = ByteBuffer.wrap(key);
            if (value == null) {
                last.remove(k);
            } else {
                last.put(k, value);
            }
        }

        long records() {
            return records;
        }

        int keys() {
            return last.size();
        }
    }

    /** A key with its value on each side (null where absent). */
    record Example(byte[] key, byte[] left, byte[] right) {}

    /** Counts and up to N examples per category. */
    record Result(
            long leftRecords,
            long rightRecords,
            long equal,
            long changed,
            long onlyLeft,
            long onlyRight,
            List<Example> changedExamples,
            List<Example> onlyLeftExamples,
            List<Example> onlyRightExamples) {

        boolean same() {
            return changed == 0 && onlyLeft == 0 && onlyRight == 0;
        }
    }

    private KeyedDiff() {}

    static Result compare(Side left, Side right, int examples) {
        long equal = 0;
        long changed = 0;
        long onlyLeft = 0;
        long onlyRight = 0;
        List<Example> changedEx = new ArrayList<>();
        List<Example> leftEx = new ArrayList<>();
        List<Example> rightEx = new ArrayList<>();
        for (Map.Entry<ByteBuffer, byte[]> e : left.last.entrySet()) {
            byte[] r = right.last.get(e.getKey());
            if (r == null) {
                onlyLeft++;
                add(leftEx, examples, new Example(bytes(e.getKey()), e.getValue(), null));
            } else if (Arrays.equals(e.getValue(), r)) {
                equal++;
            } else {
                changed++;
                add(changedEx, examples, new Example(bytes(e.getKey()), e.getValue(), r));
            }
        }
        for (Map.Entry<ByteBuffer, byte[]> e : right.last.entrySet()) {
            if (!left.last.containsKey(e.getKey())) {
                onlyRight++;
                add(rightEx, examples, new Example(bytes(e.getKey()), null, e.getValue()));
            }
        }
        return new Result(left.records, right.records, equal, changed, onlyLeft, onlyRight, changedEx, leftEx, rightEx);
    }

    private static void add(List<Example> list, int max, Example e) {
        if (list.size() < max) {
            list.add(e);
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        return b.array();
    }
}
