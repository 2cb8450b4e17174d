package io.weir.samples.wordcount;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Deterministic lines of text: each line is one of a few fixed sentences, chosen by a seeded
 * {@link Random}, so the same seed and count always give the same lines, and a few dozen distinct
 * words with very different counts. Not thread-safe.
 */
final class SampleText {

    /** The sentences lines are drawn from: mixed case and punctuation, as text comes. */
    static final List<String> SENTENCES = List.of(
            "The quick brown fox jumps over the lazy dog.",
            "A stream is an unbounded sequence of records.",
            "Exactly once: every record counts, and counts once!",
            "The fox, the dog and the stream.",
            "Kafka keeps the log; Weir keeps the state.",
            "State is restored from the changelog after a crash.",
            "Count the words, not the lines.",
            "Once upon a time, a stream of words...");

    private final Random random;

    SampleText(long seed) {
        this.random = new Random(seed);
    }

    /** The next {@code count} lines. */
    List<String> lines(int count) {
        List<String> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            lines.add(SENTENCES.get(random.nextInt(SENTENCES.size())));
        }
        return lines;
    }
}
