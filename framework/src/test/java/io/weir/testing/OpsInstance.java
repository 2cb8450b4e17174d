package io.weir.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.HttpProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * An {@link OpsApp} (or another application with its arguments, see {@link Spec#withApp}) in its
 * own JVM and what its HTTP endpoints say: the fixture of rollout, stall and fault tests.
 * {@link #start} returns once the process printed its HTTP port (the instance has checked the
 * cluster and started its threads; it is not ready yet). Closing SIGKILLs the process
 * if it still runs. The process's output is kept in {@link #LOGS}.
 */
public final class OpsInstance implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Where the instances' output stays after the run (appended across restarts), to read when a test fails. */
    public static final Path LOGS = Path.of("target", "ops-instances");

    private static final Pattern PORT = Pattern.compile(Pattern.quote(OpsApp.STARTED) + "(\\d+)");

    private final String id;
    private final ChildJvm jvm;
    private final HttpProbe http;
    private final long startedNanos;

    private OpsInstance(String id, ChildJvm jvm, HttpProbe http, long startedNanos) {
        this.id = id;
        this.jvm = jvm;
        this.http = http;
        this.startedNanos = startedNanos;
    }

    /**
     * Where an instance runs and what it is: the main class ({@link OpsApp} unless
     * {@link #withApp} says otherwise), its topics and threads, {@code WEIR_*} settings in
     * {@code env}, arguments the main class takes after OpsApp's, and extra JVM options.
     */
    public record Spec(
            Class<?> app,
            String bootstrap,
            String input,
            String output,
            String applicationId,
            int threads,
            Map<String, String> env,
            List<String> extraArgs,
            List<String> jvmOptions) {

        public Spec {
            env = Map.copyOf(env);
            extraArgs = List.copyOf(extraArgs);
            jvmOptions = List.copyOf(jvmOptions);
        }

        public Spec(String bootstrap, String input, String output, String applicationId) {
            this(OpsApp.class, bootstrap, input, output, applicationId, 1, Map.of(), List.of(), List.of());
        }

        public Spec withEnv(String name, String value) {
            Map<String, String> more = new LinkedHashMap<>(env);
            more.put(name, value);
            return new Spec(app, bootstrap, input, output, applicationId, threads, more, extraArgs, jvmOptions);
        }

        /** Adds a JVM option ({@code -Dname=value}, say) to every instance started from this spec. */
        public Spec withJvmOption(String option) {
            List<String> more = new java.util.ArrayList<>(jvmOptions);
            more.add(option);
            return new Spec(app, bootstrap, input, output, applicationId, threads, env, extraArgs, more);
        }

        /**
         * Runs {@code mainClass} instead of {@link OpsApp}: it takes OpsApp's arguments, then
         * {@code extraArgs}, and prints {@link OpsApp#STARTED} with its HTTP port once started.
         */
        public Spec withApp(Class<?> mainClass, String... extraArgs) {
            return new Spec(
                    mainClass, bootstrap, input, output, applicationId, threads, env, List.of(extraArgs), jvmOptions);
        }
    }

    /** Starts instance {@code id} with its state in {@code stateDir} and waits until it serves HTTP. */
    public static OpsInstance start(Spec spec, String id, Path stateDir) {
        long started = System.nanoTime();
        ChildJvm.Builder builder = ChildJvm.builder(spec.app())
                .args(
                        spec.bootstrap(),
                        spec.input(),
                        spec.output(),
                        stateDir.toString(),
                        spec.applicationId(),
                        id,
                        Integer.toString(spec.threads()))
                .args(spec.extraArgs())
                .jvmOptions("-Xmx256m", "-XX:+UseSerialGC")
                .jvmOptions(spec.jvmOptions().toArray(String[]::new))
                .quietLogging()
                .outputFile(LOGS.resolve(spec.applicationId() + "-" + id + ".log"));
        spec.env().forEach(builder::env);
        ChildJvm jvm = builder.start();
        try {
            jvm.awaitOutput(OpsApp.STARTED, Duration.ofSeconds(60));
            Matcher m = PORT.matcher(jvm.output());
            if (!m.find()) {
                throw new AssertionError("no port in the output of instance " + id + ":\n" + jvm.outputTail(20));
            }
            return new OpsInstance(id, jvm, HttpProbe.localhost(Integer.parseInt(m.group(1))), started);
        } catch (RuntimeException | AssertionError e) {
            jvm.close();
            throw e;
        }
    }

    /**
     * Starts the instances {@code stateDirs} names (id to state directory) side by side, their JVMs
     * at the same time, each on a thread of its own, and returns them in {@code stateDirs}' order once
     * each serves HTTP, as {@link #start} does one by one. Instances started together join the group
     * in one rebalance instead of one each. If one fails to start, the others are SIGKILLed.
     */
    public static List<OpsInstance> startAll(Spec spec, Map<String, Path> stateDirs) {
        ExecutorService starter = Executors.newFixedThreadPool(stateDirs.size());
        try {
            Map<String, Future<OpsInstance>> starting = new LinkedHashMap<>();
            stateDirs.forEach((id, dir) -> starting.put(id, starter.submit(() -> start(spec, id, dir))));
            List<OpsInstance> started = new ArrayList<>();
            RuntimeException failed = null;
            for (var e : starting.entrySet()) {
                try {
                    started.add(e.getValue().get());
                } catch (ExecutionException | InterruptedException x) {
                    if (x instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                    }
                    RuntimeException why = new IllegalStateException("instance " + e.getKey() + " did not start", x);
                    if (failed == null) {
                        failed = why;
                    } else {
                        failed.addSuppressed(why);
                    }
                }
            }
            if (failed != null) {
                started.forEach(OpsInstance::close);
                throw failed;
            }
            return started;
        } finally {
            starter.shutdown();
        }
    }

    public String id() {
        return id;
    }

    public ChildJvm jvm() {
        return jvm;
    }

    public HttpProbe http() {
        return http;
    }

    /** {@link System#nanoTime()} just before the process was started. */
    public long startedNanos() {
        return startedNanos;
    }

    /** The status of {@code /health/ready} (0 when nothing answers). */
    public int readyStatus() {
        return http.status("/health/ready");
    }

    /** True when {@code /health/ready} answers 200; throws with the output tail if the process died. */
    public boolean ready() {
        if (!jvm.isAlive()) {
            throw new AssertionError(
                    "instance " + id + " exited with " + jvm.exitCode().getAsInt() + ":\n" + jvm.outputTail(40));
        }
        return readyStatus() == 200;
    }

    /** The active tasks of every thread, from {@code /info}; empty when nothing answers. */
    public Set<String> tasks() {
        HttpProbe.Response r = http.get("/info");
        Set<String> tasks = new TreeSet<>();
        if (r.status() != 200) {
            return tasks;
        }
        try {
            JsonNode byThread = JSON.readTree(r.body()).get("tasksByThread");
            byThread.elements().forEachRemaining(list -> list.forEach(t -> tasks.add(t.asText())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tasks;
    }

    /** The sum of a meter's samples in {@code /metrics} (over threads, tasks, ...); NaN when nothing answers. */
    public double metric(String name) {
        List<PrometheusText.Sample> samples = samples(name);
        return samples == null
                ? Double.NaN
                : samples.stream().mapToDouble(PrometheusText.Sample::value).sum();
    }

    /** A meter's samples in {@code /metrics}, with their labels; null when nothing answers. */
    public List<PrometheusText.Sample> samples(String name) {
        HttpProbe.Response r = http.get("/metrics");
        if (r.status() != 200) {
            return null;
        }
        return PrometheusText.parse(r.body()).stream()
                .filter(s -> s.name().equals(name))
                .toList();
    }

    /** SIGSTOPs the process (a frozen JVM, as in a long GC pause); {@link #resume()} continues it. */
    public void suspend() {
        jvm.suspend();
    }

    /** SIGCONTs a process {@link #suspend() suspended} before. */
    public void resume() {
        jvm.resume();
    }

    /** The tasks {@code 0_0 .. 0_<partitions-1>} of a one-sub-topology application over {@code partitions} partitions. */
    public static Set<String> tasks(int partitions) {
        return tasks(1, partitions);
    }

    /** The tasks {@code <s>_<p>} of {@code subtopologies} sub-topologies over {@code partitions} partitions each. */
    public static Set<String> tasks(int subtopologies, int partitions) {
        return IntStream.range(0, subtopologies)
                .boxed()
                .flatMap(s -> IntStream.range(0, partitions).mapToObj(p -> s + "_" + p))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Waits until every instance is ready with a share of the tasks, together exactly
     * {@code allTasks}, each task on one instance.
     */
    public static void awaitSplit(Set<String> allTasks, Duration timeout, OpsInstance... instances) {
        org.awaitility.Awaitility.await()
                .atMost(timeout)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    Set<String> union = new TreeSet<>();
                    int total = 0;
                    for (OpsInstance i : instances) {
                        if (!i.ready()) {
                            return false;
                        }
                        Set<String> tasks = i.tasks();
                        if (tasks.isEmpty()) {
                            return false;
                        }
                        union.addAll(tasks);
                        total += tasks.size();
                    }
                    return union.equals(allTasks) && total == allTasks.size();
                });
    }

    /**
     * Waits until no instance of {@code instances} has rebalanced for {@code quiet} (their
     * {@code weir_rebalances_total} summed stayed the same): a cooperative join can take a further
     * round after the tasks were split, and a test that counts rebalances must start after it.
     */
    public static void awaitNoRebalanceFor(Duration quiet, Duration timeout, OpsInstance... instances) {
        double[] last = {-1};
        long[] since = {System.nanoTime()};
        org.awaitility.Awaitility.await()
                .atMost(timeout)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    double rebalances = 0;
                    for (OpsInstance i : instances) {
                        rebalances += i.metric("weir_rebalances_total");
                    }
                    long now = System.nanoTime();
                    if (rebalances != last[0]) {
                        last[0] = rebalances;
                        since[0] = now;
                    }
                    return now - since[0] >= quiet.toNanos();
                });
    }

    /** SIGKILLs the process if it still runs. */
    @Override
    public void close() {
        jvm.close();
    }

    @Override
    public String toString() {
        return "instance " + id + " (" + jvm + ")";
    }
}
