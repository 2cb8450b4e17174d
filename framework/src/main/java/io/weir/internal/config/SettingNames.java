package io.weir.internal.config;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Every setting name Weir accepts ({@link ClientSettings#isKnown}: its own settings, the Kafka
 * clients' settings unprefixed and behind each client's prefix), and those among them that are byte
 * counts, written as the Helm chart's {@code helm/weir/files/settings.yaml}. The chart reads that
 * file to refuse, when it renders, names Weir would ignore (a {@code WEIR_*} variable of an unknown
 * name is only logged) and to write memory quantities ({@code 512Mi}) of byte settings as the whole
 * numbers Weir and the Kafka clients parse. The docs module's updater writes the file (see
 * docs/README.md); {@code SettingNamesTest} fails while it differs from {@link #chartFile()}.
 */
public final class SettingNames {

    /** The chart's copy, relative to the repository root. */
    public static final String CHART_FILE = "helm/weir/files/settings.yaml";

    static final String REGENERATE = "mvn -B -q -pl docs -am process-test-classes -Pupdate-docs";

    /** Kafka client settings in bytes whose names do not end in {@code .bytes}. */
    private static final Set<String> KAFKA_BYTES = Set.of("batch.size", "buffer.memory", "max.request.size");

    private SettingNames() {}

    /** Every name {@link ClientSettings#isKnown} accepts, sorted. */
    public static List<String> accepted() {
        TreeSet<String> names = new TreeSet<>(Settings.ALL.keySet());
        for (KafkaClient client : KafkaClient.values()) {
            for (String name : client.names()) {
                names.add(client.prefix() + name);
                if (client != KafkaClient.RESTORE_CONSUMER) {
                    names.add(name);
                }
            }
        }
        return List.copyOf(names);
    }

    /**
     * The accepted names whose value is a number of bytes: Weir's settings named {@code *.bytes},
     * and the Kafka clients' ({@code *.bytes}, {@code batch.size}, {@code buffer.memory},
     * {@code max.request.size}), prefixed or not.
     */
    public static List<String> byteCounts() {
        return accepted().stream().filter(SettingNames::isByteCount).toList();
    }

    /** The chart's {@value #CHART_FILE}, as it must read. */
    public static String chartFile() {
        return "# Generated from io.weir.internal.config.SettingNames: do not edit. After a change of Weir's\n"
                + "# settings or of the Kafka clients, regenerate it with\n"
                + "#   " + REGENERATE + "\n"
                + "# accepted: every setting name Weir accepts (its own, the Kafka clients' unprefixed and behind\n"
                + "# consumer., restore.consumer., producer. or admin.); the chart refuses other names.\n"
                + "# bytes: those whose value is a number of bytes; the chart writes 512Mi as 536870912.\n"
                + list("accepted", accepted())
                + list("bytes", byteCounts());
    }

    private static boolean isByteCount(String name) {
        KafkaClient prefixed = KafkaClient.ofPrefixed(name);
        String bare = prefixed == null ? name : name.substring(prefixed.prefix().length());
        return bare.endsWith(".bytes") || KAFKA_BYTES.contains(bare);
    }

    private static String list(String key, List<String> names) {
        return key + ":\n" + names.stream().map(n -> "  - " + n + "\n").collect(Collectors.joining());
    }
}
