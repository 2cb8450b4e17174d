package io.weir.deploy.kubernetes.cluster;

import java.io.PrintStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runner's output: one JSON object a line on standard output, so a run can be read by people
 * and by {@code jq} alike. {@code step} lines carry a scenario step's figures and say what was real
 * and what the runner stood in for; {@code event} lines are the controller's and the kubelet's
 * actions, as {@code kubectl get events} would show them. Thread-safe.
 */
public final class Events {

    private final PrintStream out;
    private final long startedNanos = System.nanoTime();

    public Events(PrintStream out) {
        this.out = out;
    }

    public void event(String source, String object, String message) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("event", message);
        line.put("source", source);
        line.put("object", object);
        print(line);
    }

    /** A scenario step: its name, what was real, what the runner did in Kubernetes' place, its figures. */
    public void step(String step, String real, String runner, Map<String, ?> figures) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("step", step);
        line.putAll(figures);
        line.put("real", real);
        line.put("runner", runner);
        print(line);
    }

    /** Why the run stopped early: the step that failed and its error, the run's last line. */
    public void failure(String message) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("failure", message);
        print(line);
    }

    private synchronized void print(Map<String, Object> line) {
        Map<String, Object> stamped = new LinkedHashMap<>();
        stamped.put("t", Math.round((System.nanoTime() - startedNanos) / 1e8) / 10.0);
        stamped.put("at", Instant.now().toString());
        stamped.putAll(line);
        out.println(Json.line(stamped));
    }
}
