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
 *
 * <p>One line per changelog partition: {@code <topic> <partition> <offset> <topicId>}. The topic
 * id (see {@link ChangelogTopicIds}) tells offsets into a changelog that was since deleted and
 * recreated from offsets into the current one; files written before ids were recorded have three
 * fields, read as an unknown id.
 */
public final class Checkpoint {

    static final String FILE = ".checkpoint";

    /** Where a store stands in its changelog; {@code topicId} null when unknown. */
    record Entry(long offset, String topicId) {}

    private Checkpoint() {}

    static void write(Path taskDir, Map<TopicPartition, Entry> entries) {
        StringBuilder text = new StringBuilder();
        entries.forEach((tp, e) -> {
            text.append(tp.topic())
                    .append(' ')
                    .append(tp.partition())
                    .append(' ')
                    .append(e.offset());
            if (e.topicId() != null) {
                text.append(' ').append(e.topicId());
            }
            text.append('\n');
        });
        try {
            Path tmp = taskDir.resolve(FILE + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, taskDir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + taskDir.resolve(FILE) + ": " + e, e);
        }
    }

    /** The entries recorded in {@code taskDir}; empty when there is no (readable) checkpoint. */
    static Map<TopicPartition, Entry> read(Path taskDir) {
        Map<TopicPartition, Entry> entries = new LinkedHashMap<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(taskDir.resolve(FILE), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return entries;
        } catch (IOException e) {
            return entries;
        }
        for (String line : lines) {
            String[] parts = line.trim().split(" ");
            if (parts.length != 3 && parts.length != 4) {
                return Map.of(); // torn or foreign: know nothing rather than something wrong
            }
            try {
                entries.put(
                        new TopicPartition(parts[0], Integer.parseInt(parts[1])),
                        new Entry(Long.parseLong(parts[2]), parts.length == 4 ? parts[3] : null));
            } catch (NumberFormatException e) {
                return Map.of();
            }
        }
        return entries;
    }

    /**
     * The sum of the offsets recorded in {@code taskDir}, if it has a checkpoint whose changelogs
     * are the current ones: a checkpoint of a changelog since recreated ({@code current} knows
     * another id) describes state that will be wiped, so it counts as none.
     */
    public static OptionalLong offsetSum(Path taskDir, ChangelogTopicIds current) {
        Map<TopicPartition, Entry> entries = read(taskDir);
        if (entries.isEmpty()) {
            return OptionalLong.empty();
        }
        for (Map.Entry<TopicPartition, Entry> e : entries.entrySet()) {
            if (current.recreated(e.getKey().topic(), e.getValue().topicId())) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(sum(entries));
    }

    static long sum(Map<TopicPartition, Entry> entries) {
        long sum = 0;
        for (Entry e : entries.values()) {
            sum += e.offset();
        }
        return sum;
    }
}
