package io.weir.cli;

import io.weir.WeirConfig;
import java.util.Set;
import java.util.TreeSet;

/**
 * Recognizes an application's own topics by name, as the runtime names them:
 * {@code <app>-<store>-changelog}, {@code <app>-<node>-repartition}, the dead-letter, late-records
 * and liveness topics. Without the topology, names are all there is: an application whose id
 * extends another's ({@code app} and {@code app-x}) shares its prefix, so {@code --topology}
 * gives the exact list where it matters (reset).
 */
final class AppTopics {

    private AppTopics() {
    }

    static boolean isChangelog(String app, String topic) {
        return topic.startsWith(app + "-") && topic.endsWith("-changelog");
    }

    static boolean isRepartition(String app, String topic) {
        return topic.startsWith(app + "-") && topic.endsWith("-repartition");
    }

    /** The kind of an internal topic of the application, or null for any other topic. */
    static String kindOf(WeirConfig config, String topic) {
        String app = config.applicationId();
        if (isChangelog(app, topic)) {
            return "changelog";
        }
        if (isRepartition(app, topic)) {
            return "repartition";
        }
        if (topic.equals(config.deadLetterTopic())) {
            return "dead-letter";
        }
        if (topic.equals(config.lateRecordsTopic())) {
            return "late-records";
        }
        if (topic.equals(app + "-liveness")) {
            return "liveness";
        }
        return null;
    }

    static Set<String> internal(WeirConfig config, Set<String> topics) {
        Set<String> internal = new TreeSet<>();
        for (String t : topics) {
            if (kindOf(config, t) != null) {
                internal.add(t);
            }
        }
        return internal;
    }
}
