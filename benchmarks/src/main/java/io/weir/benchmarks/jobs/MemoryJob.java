package io.weir.benchmarks.jobs;

import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.InputTopic;
import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.systems.ChildCountRunner;
import io.weir.benchmarks.verification.CompletionProbe;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.Worker;
import io.weir.testkit.KafkaTestClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Memory (the memory workload): the peak RSS of a Weir process counting {@code keys} distinct keys,
 * against the bound its settings promise.
 *
 * <p>Off the clock, the run's own input {@code <application.id>-in} is written with each key once
 * ({@link Workload#createDistinct}). The process ({@link ChildCountRunner}: exactly-once,
 * {@code rocksdb.memory.bytes} {@value #ROCKSDB_MEMORY_BYTES}, JVM {@code -Xmx512m}) is started and,
 * from then until the {@link CompletionProbe} sees every input record committed (and one output per
 * key), {@code /proc/<pid>/status} is read every {@link #SAMPLE_INTERVAL}: {@code VmRSS}, and
 * {@code VmHWM}, the kernel's own peak RSS, so that a peak between two samples is not missed. The
 * peak is {@code max_rss_bytes}; the bound is {@code rocksdb.memory.bytes + Xmx +}
 * {@value #NON_HEAP_ALLOWANCE_BYTES} bytes for the JVM's memory outside the heap
 * (benchmarks/README.md: "memory-10m").
 */
public final class MemoryJob extends KeyedJob {

    static final long ROCKSDB_MEMORY_BYTES = 256L << 20;
    static final long XMX_BYTES = 512L << 20;
    /** Metaspace, code cache, thread stacks, GC structures, NIO buffers, malloc overhead: see benchmarks/README.md. */
    static final long NON_HEAP_ALLOWANCE_BYTES = 256L << 20;

    static final Duration SAMPLE_INTERVAL = Duration.ofMillis(200);

    /** The state of the current run, from {@link #prepare} to {@link #details}. */
    private Run current;

    public MemoryJob(KafkaTestClient client, Workload workload, Scenario scenario, long keys) {
        super(client, workload, scenario, Scenario.Kind.MEMORY, keys);
    }

    /** The Weir process of the workload. */
    public static ChildCountRunner system() {
        return new ChildCountRunner(
                "weir",
                List.of("-Xmx" + (XMX_BYTES >> 20) + "m", "-XX:+UseG1GC"),
                Map.of("rocksdb.memory.bytes", Long.toString(ROCKSDB_MEMORY_BYTES)));
    }

    static long boundBytes() {
        return ROCKSDB_MEMORY_BYTES + XMX_BYTES + NON_HEAP_ALLOWANCE_BYTES;
    }

    @Override
    public void prepare(RunSpec spec, SystemUnderTest system, Duration timeout) {
        current = new Run(workload.createDistinct(spec.inputTopic(), keys));
    }

    @Override
    public long await(RunSpec spec, SystemUnderTest.Running running, long startedNanos, Deadline deadline)
            throws InterruptedException {
        Run run = current;
        long pid =
                running.pid().orElseThrow(() -> new IllegalStateException("the system runs in no process of its own"));
        Worker sampler = Worker.every("rss-sampler", SAMPLE_INTERVAL, self -> run.sample(pid));
        try {
            new CompletionProbe(client.admin(), run.input, keys)
                    .await(spec.applicationId(), spec.outputTopic(), Workload.PARTITIONS, running, deadline);
            return System.nanoTime();
        } finally {
            sampler.stopAndJoin(Worker.DEFAULT_JOIN_TIMEOUT);
            run.sample(pid); // the last word: VmHWM covers everything up to now
        }
    }

    /**
     * {@code rocksdb_memory_bytes}, {@code xmx_bytes}, {@code max_rss_bytes}, {@code bound_bytes},
     * {@code within_bound} (null without a sample), {@code rss_samples}.
     */
    @Override
    public Map<String, Object> details(RunSpec spec) {
        Run run = current;
        current = null;
        long max = run == null ? -1 : run.maxRss;
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("rocksdb_memory_bytes", ROCKSDB_MEMORY_BYTES);
        d.put("xmx_bytes", XMX_BYTES);
        d.put("max_rss_bytes", max < 0 ? null : max);
        d.put("bound_bytes", boundBytes());
        d.put("within_bound", max < 0 ? null : max <= boundBytes());
        d.put("rss_samples", run == null ? 0 : run.samples);
        return d;
    }

    /** One run's state; the sampler thread writes, the benchmark thread reads after joining it. */
    private static final class Run {
        final InputTopic input;
        volatile long maxRss = -1;
        volatile int samples;

        Run(InputTopic input) {
            this.input = input;
        }

        /** Reads VmRSS and VmHWM of {@code pid}; nothing if the process is gone. */
        synchronized void sample(long pid) {
            List<String> lines;
            try {
                lines = Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"));
            } catch (IOException e) {
                return;
            }
            long max = maxRss;
            boolean found = false;
            for (String line : lines) {
                if (line.startsWith("VmRSS:") || line.startsWith("VmHWM:")) {
                    // "VmRSS:\t  123456 kB"
                    String[] parts = line.substring(6).trim().split("\\s+");
                    max = Math.max(max, Long.parseLong(parts[0]) * 1024);
                    found = true;
                }
            }
            if (found) {
                maxRss = max;
                samples++;
            }
        }
    }
}
