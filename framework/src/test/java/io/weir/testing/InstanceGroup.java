package io.weir.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The instances of one application in a fault test, each an {@link OpsInstance} with a stable id
 * and a state directory of its own that survives its kills, so that a restart comes back as the
 * same instance with its state. Knows which instances run and which are suspended (SIGSTOP:
 * their HTTP endpoints would hang, so they are not asked), and waits for the group to settle.
 *
 * <p>Not thread-safe: one test thread drives it. {@link #close()} SIGKILLs whatever still runs and
 * deletes the state directories.
 */
public final class InstanceGroup implements AutoCloseable {

    private final OpsInstance.Spec spec;
    private final Path stateRoot;
    private final Set<String> allTasks;
    private final Map<String, OpsInstance> running = new LinkedHashMap<>();
    private final Set<String> suspended = new HashSet<>();
    private final List<OpsInstance> started = new ArrayList<>();

    /** A group of {@code spec}'s instances over {@code partitions} input partitions (tasks {@code 0_0..}). */
    public InstanceGroup(OpsInstance.Spec spec, int partitions) {
        this(spec, OpsInstance.tasks(partitions));
    }

    /** A group of {@code spec}'s instances that run {@code allTasks} between them ({@code 0_0}, {@code 1_0}, ...). */
    public InstanceGroup(OpsInstance.Spec spec, Set<String> allTasks) {
        this.spec = spec;
        try {
            this.stateRoot = Files.createTempDirectory("weir-" + spec.applicationId() + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.allTasks = new TreeSet<>(allTasks);
    }

    public Set<String> allTasks() {
        return allTasks;
    }

    /** Starts instance {@code id} (again, after a kill or a stop: same state directory). */
    public OpsInstance start(String id) {
        if (running.containsKey(id)) {
            throw new IllegalStateException("instance " + id + " runs already");
        }
        OpsInstance instance = OpsInstance.start(spec, id, stateRoot.resolve(id));
        started.add(instance);
        running.put(id, instance);
        return instance;
    }

    /**
     * Starts the instances {@code ids} side by side (their JVMs start at the same time, each on a
     * thread of its own) and returns once each serves HTTP, as {@link #start} does one by one.
     */
    public void startAll(String... ids) {
        Map<String, Path> stateDirs = new LinkedHashMap<>();
        for (String id : ids) {
            if (running.containsKey(id)) {
                throw new IllegalStateException("instance " + id + " runs already");
            }
            stateDirs.put(id, stateRoot.resolve(id));
        }
        List<OpsInstance> instances = OpsInstance.startAll(spec, stateDirs);
        for (int i = 0; i < ids.length; i++) {
            started.add(instances.get(i));
            running.put(ids[i], instances.get(i));
        }
    }

    public OpsInstance get(String id) {
        OpsInstance instance = running.get(id);
        if (instance == null) {
            throw new IllegalStateException("instance " + id + " does not run; running: " + running.keySet());
        }
        return instance;
    }

    /** The ids of the instances that run, suspended ones included. */
    public Set<String> runningIds() {
        return new TreeSet<>(running.keySet());
    }

    /** SIGKILLs instance {@code id}; its state directory stays for a restart. */
    public void kill(String id) {
        get(id).jvm().kill();
        running.remove(id);
        suspended.remove(id);
    }

    /** Forgets instance {@code id}, which has exited by itself (after SIGTERM or {@code /admin/leave}). */
    public void exited(String id) {
        OpsInstance instance = get(id);
        if (instance.jvm().isAlive()) {
            throw new IllegalStateException(instance + " still runs");
        }
        running.remove(id);
    }

    /** SIGSTOPs instance {@code id}. */
    public void suspend(String id) {
        get(id).jvm().suspend();
        suspended.add(id);
    }

    /** SIGCONTs instance {@code id}. */
    public void resume(String id) {
        get(id).jvm().resume();
        suspended.remove(id);
    }

    /** The active tasks of each running instance except {@code except} and suspended ones. */
    public Map<String, Set<String>> tasks(Collection<String> except) {
        Map<String, Set<String>> tasks = new TreeMap<>();
        running.forEach((id, instance) -> {
            if (!except.contains(id) && !suspended.contains(id)) {
                tasks.put(id, instance.tasks());
            }
        });
        return tasks;
    }

    /**
     * True when the running instances other than {@code except} (and suspended ones) are all
     * ready and own every task exactly once between them.
     *
     * @throws AssertionError with its output tail if one of them has died
     */
    public boolean settled(Collection<String> except) {
        Map<String, Set<String>> tasks = new TreeMap<>();
        for (Map.Entry<String, OpsInstance> e : running.entrySet()) {
            if (except.contains(e.getKey()) || suspended.contains(e.getKey())) {
                continue;
            }
            if (!e.getValue().ready()) {
                return false;
            }
            tasks.put(e.getKey(), e.getValue().tasks());
        }
        return ownEveryTaskOnce(tasks);
    }

    /** True when {@code tasks} (per instance) hold every task exactly once. */
    public boolean ownEveryTaskOnce(Map<String, Set<String>> tasks) {
        Set<String> union = new TreeSet<>();
        int total = 0;
        for (Set<String> t : tasks.values()) {
            union.addAll(t);
            total += t.size();
        }
        return union.equals(allTasks) && total == allTasks.size();
    }

    /** Waits until {@link #settled} holds for all running instances. */
    public void awaitSettled(Duration timeout, String context) {
        awaitSettled(timeout, context, Set.of());
    }

    /** Waits until {@link #settled} holds for the running instances other than {@code except}. */
    public void awaitSettled(Duration timeout, String context, Collection<String> except) {
        await().atMost(timeout)
                .pollInterval(Duration.ofMillis(250))
                .alias(context + ": instances " + running.keySet() + " (but " + except + ", suspended " + suspended
                        + ") ready with every task once")
                .until(() -> settled(except));
    }

    /** The tasks of each instance now, for a failure message. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        running.forEach((id, instance) -> {
            b.append(id).append(suspended.contains(id) ? " (suspended)" : "").append(": ");
            if (!instance.jvm().isAlive()) {
                b.append("exited ").append(instance.jvm().exitCode().getAsInt());
            } else if (suspended.contains(id)) {
                b.append('-');
            } else {
                b.append("ready ")
                        .append(instance.readyStatus())
                        .append(", tasks ")
                        .append(instance.tasks());
            }
            b.append("; log ")
                    .append(instance.jvm().outputFile().toAbsolutePath())
                    .append('\n');
        });
        return b.toString();
    }

    /** SIGKILLs every instance still running (a suspended one too) and deletes their state directories. */
    @Override
    public void close() {
        started.forEach(OpsInstance::close);
        try (Stream<Path> paths = Files.walk(stateRoot)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is no reason to fail a test
        }
    }
}
