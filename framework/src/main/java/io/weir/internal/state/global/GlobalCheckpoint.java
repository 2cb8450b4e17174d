package io.weir.internal.state.global;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a global table on disk may resume reading its topic: the file {@code <store>.positions}
 * beside the table's RocksDB directory, with the last few checkpoints, each the sequence number of
 * the last batch applied to the store, what the store's contents belong to (the topic's id and the
 * table's formats, one token) and the position reached in every partition.
 *
 * <p>Why a sequence number and not the offsets in the store: the store records one number
 * atomically with its data ({@code BytesStore#apply}), while a global table holds every partition
 * of its topic. The store records the sequence of its batches; the checkpoint maps a sequence to
 * the positions reached when it was applied. At start-up the store's durable sequence (what its
 * last flush kept) picks the newest checkpoint at or below it: every record before those positions
 * is in the store. Records after them may be in the store too (it flushes on its own); reading
 * them again is harmless, because a global table keeps the latest value of each key and a record
 * applied twice in the same order gives the same table.
 */
final class GlobalCheckpoint {

    private static final Logger log = LoggerFactory.getLogger(GlobalCheckpoint.class);
    /** Checkpoints kept: enough that one is at or below what the store's last flush made durable. */
    static final int KEPT = 8;

    private static final String HEADER = "# weir global table positions: sequence identity partition=offset...";

    /**
     * One checkpoint: after batch {@code sequence}, the next offset to read of each partition, of
     * the topic and formats {@code identity} names (no spaces).
     */
    record Entry(long sequence, String identity, Map<Integer, Long> positions) {
        Entry {
            if (identity.isEmpty() || identity.contains(" ") || identity.contains("\n")) {
                throw new IllegalArgumentException("a checkpoint identity is one token, not '" + identity + "'");
            }
            positions = Map.copyOf(positions);
        }
    }

    private final Path file;
    private final List<Entry> entries = new ArrayList<>();

    GlobalCheckpoint(Path file) {
        this.file = file;
        entries.addAll(read(file));
    }

    /**
     * The positions to resume from, if a checkpoint of {@code identity} is at or below the store's
     * durable sequence {@code durable}; empty means read from the beginning.
     */
    Optional<Map<Integer, Long>> resumeAt(long durable, String identity) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            Entry e = entries.get(i);
            if (e.sequence() <= durable) {
                return e.identity().equals(identity) ? Optional.of(e.positions()) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Adds a checkpoint and writes the file (the last {@link #KEPT}), replacing it atomically. */
    void write(Entry entry) {
        entries.add(entry);
        while (entries.size() > KEPT) {
            entries.remove(0);
        }
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        for (Entry e : entries) {
            text.append(e.sequence()).append(' ').append(e.identity());
            new TreeMap<>(e.positions())
                    .forEach((p, o) -> text.append(' ').append(p).append('=').append(o));
            text.append('\n');
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the global table checkpoint " + file, e);
        }
    }

    /** Forgets every checkpoint (the store was cleared). */
    void clear() {
        entries.clear();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the global table checkpoint " + file, e);
        }
    }

    /** The checkpoints in the file; none if it is missing or unreadable (then the table is read in full). */
    private static List<Entry> read(Path file) {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<Entry> read = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.trim().split(" ");
                Map<Integer, Long> positions = new TreeMap<>();
                for (int i = 2; i < parts.length; i++) {
                    int eq = parts[i].indexOf('=');
                    positions.put(
                            Integer.parseInt(parts[i].substring(0, eq)), Long.parseLong(parts[i].substring(eq + 1)));
                }
                read.add(new Entry(Long.parseLong(parts[0]), parts[1], positions));
            }
        } catch (IOException | RuntimeException e) {
            log.warn(
                    "cannot read the global table checkpoint {} ({}); reading the table's topic from the beginning",
                    file,
                    e.toString());
            return List.of();
        }
        return read;
    }
}
