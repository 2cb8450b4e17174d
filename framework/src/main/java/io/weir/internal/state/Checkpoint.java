package io.weir.internal.state;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/**
 * The changelog offsets of a task's persistent stores, kept in {@code <taskDir>/.checkpoint} so
 * the assignor learns how far an instance's local state has come without opening the stores.
 *
 * <p>An estimate, never the truth: the offset inside each RocksDB store (written atomically with
 * its data) decides where a restore starts. The file is written when the stores flush and when
 * they close; after a crash the stores may reopen a little behind it, which only makes the restore
 * a little longer than the assignor expected.
 */
public final class Checkpoint {

    static final String FILE = ".checkpoint";

    private Checkpoint() {
    }

    static void write(Path taskDir, Map<TopicPartition, Long> offsets) {
        StringBuilder text = new StringBuilder();
        offsets.forEach((tp, offset) -> text.append(tp.topic()).append(' ').append(tp.partition()).append(' ')
                .append(offset).append('\n'));
        try {
            Path tmp = taskDir.resolve(FILE + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, taskDir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + taskDir.resolve(FILE) + ": " + e, e);
        }
    }

    /** The offsets recorded in {@code taskDir}; empty when there is no (readable) checkpoint. */
    static Map<TopicPartition, Long> read(Path taskDir) {
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(taskDir.resolve(FILE), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return offsets;
        } catch (IOException e) {
            return offsets;
        }
        for (String line : lines) {
            String[] parts = line.trim().split(" ");
            if (parts.length != 3) {
                return Map.of(); // torn or foreign: know nothing rather than something wrong
            }
            try {
                offsets.put(new TopicPartition(parts[0], Integer.parseInt(parts[1])), Long.parseLong(parts[2]));
            } catch (NumberFormatException e) {
                return Map.of();
            }
        }
        return offsets;
    }

    /** The sum of the offsets recorded in {@code taskDir}, if it has a checkpoint. */
    public static OptionalLong offsetSum(Path taskDir) {
        Map<TopicPartition, Long> offsets = read(taskDir);
        return offsets.isEmpty() ? OptionalLong.empty() : OptionalLong.of(sum(offsets));
    }

    static long sum(Map<TopicPartition, Long> offsets) {
        long sum = 0;
        for (long o : offsets.values()) {
            sum += o;
        }
        return sum;
    }
}
