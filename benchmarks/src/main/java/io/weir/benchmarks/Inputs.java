package io.weir.benchmarks;

import io.weir.benchmarks.input.InputTopic;
import io.weir.benchmarks.input.WindowModel;
import io.weir.benchmarks.input.WindowedInput;
import io.weir.benchmarks.input.Workload;
import io.weir.testkit.KafkaTestClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The input topics on the broker, named by size and key count (and, for a windowed input, so
 * named): a workload asks for the ones it needs, and every other is deleted, so the broker holds
 * at most a warm-up and a main input (count-10k reuses the stateless map's input: the same
 * records over the same 10,000 keys).
 */
final class Inputs {
    private final KafkaTestClient client;
    private final Workload workload;
    private final Map<String, InputTopic> topics = new HashMap<>();
    /** The models of the windowed inputs among {@link #topics}. */
    private final Map<String, WindowModel> models = new HashMap<>();

    Inputs(KafkaTestClient client, Workload workload) {
        this.client = client;
        this.workload = workload;
    }

    Workload workload() {
        return workload;
    }

    /** Deletes every input (the restart and memory workloads write one per run). */
    void deleteAll() {
        keepOnly(Set.of());
    }

    /**
     * The input of {@code records} records over {@code keys} keys, written if need be; every
     * input other than it and those of {@code alsoKeep} records (same keys) is deleted first.
     */
    InputTopic only(long records, int keys, long... alsoKeep) {
        keepOnly(names(false, records, keys, alsoKeep));
        return topics.computeIfAbsent(name(false, records, keys), n -> workload.create(n, records, keys));
    }

    /**
     * The windowed input ({@link Workload#createWindowed}) of {@code records} records over
     * {@code keys} keys, written if need be; every input other than it and the windowed ones
     * of {@code alsoKeep} records is deleted first.
     */
    WindowedInput windowed(long records, int keys, long... alsoKeep) {
        keepOnly(names(true, records, keys, alsoKeep));
        String name = name(true, records, keys);
        if (!topics.containsKey(name)) {
            WindowedInput created = workload.createWindowed(name, records, keys, Scenario.WINDOW_SIZE.toMillis());
            topics.put(name, created.topic());
            models.put(name, created.model());
        }
        return new WindowedInput(topics.get(name), models.get(name));
    }

    private void keepOnly(Set<String> keep) {
        for (String name : List.copyOf(topics.keySet())) {
            if (!keep.contains(name)) {
                client.deleteTopic(name);
                topics.remove(name);
                models.remove(name);
            }
        }
    }

    private static Set<String> names(boolean windowed, long records, int keys, long... alsoKeep) {
        Set<String> names = new java.util.HashSet<>();
        names.add(name(windowed, records, keys));
        for (long r : alsoKeep) {
            names.add(name(windowed, r, keys));
        }
        return names;
    }

    private static String name(boolean windowed, long records, int keys) {
        return "bench-" + (windowed ? "windowed-" : "") + "input-" + keys + "-keys-" + records + "-records";
    }
}
