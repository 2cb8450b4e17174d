package io.weir;

import io.weir.internal.supervision.InstanceMonitor;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * An instance's status in one line of {@code key=value} words, sent with its liveness heartbeats
 * so that {@code weir describe} can show, from Kafka alone, what every instance does: its state,
 * its active and standby tasks, the stores it restores and how many records each has left, and its
 * HTTP port.
 */
final class InstanceStatus {

    private InstanceStatus() {}

    static String of(WeirApp app) {
        List<String> words = new ArrayList<>();
        words.add("state=" + app.state());
        InstanceMonitor m = app.running().map(RunningInstance::monitor).orElse(null);
        if (m != null) {
            TreeSet<String> active = new TreeSet<>();
            m.tasksByThread().values().forEach(active::addAll);
            words.add("active=" + String.join(",", active));
            words.add("restoring=" + String.join(",", m.restoreProgress()));
        }
        words.add("standby="
                + String.join(",", app.running().map(i -> i.standbyTasks(false)).orElse(List.of())));
        words.add("http=" + (app.httpPort().isPresent() ? app.httpPort().getAsInt() : -1));
        return String.join(" ", words);
    }
}
