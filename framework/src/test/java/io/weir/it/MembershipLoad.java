package io.weir.it;

import io.weir.testing.OpsInstance;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.SteadyInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The load of the group membership tests (rollouts, scale-in, failure detection): instances of
 * the ops application over topics of {@value #PARTITIONS} partitions, one task each, counting
 * {@value #KEYS} keys that arrive at {@value #RATE} records a second: enough for every instance to
 * have work and state, little enough for a loaded 2-core machine.
 */
final class MembershipLoad {

    static final int PARTITIONS = 6;
    static final int KEYS = 600;
    static final int RATE = 300;
    static final Set<String> ALL_TASKS = OpsInstance.tasks(PARTITIONS);

    private MembershipLoad() {}

    /**
     * An application over new input and output topics named after {@code name}, whose members'
     * sessions outlast every wait of the tests ({@code sessionTimeout}).
     */
    static OpsInstance.Spec spec(KafkaExtension kafka, String name, Duration sessionTimeout) {
        String input = kafka.uniqueTopic(name + "-in", PARTITIONS);
        String output = kafka.uniqueTopic(name + "-out", PARTITIONS);
        return new OpsInstance.Spec(kafka.bootstrapServers(), input, output, name + "-" + input)
                .withEnv("WEIR_CONSUMER_SESSION_TIMEOUT_MS", Long.toString(sessionTimeout.toMillis()));
    }

    /** The steady input to {@code topic}: at most {@code maxRecords} records, none after {@code maxTime}. */
    static SteadyInput input(KafkaExtension kafka, String topic, long maxRecords, Duration maxTime) {
        return SteadyInput.start(kafka.bootstrapServers(), topic, KEYS, RATE, maxRecords, maxTime);
    }

    /**
     * Instances {@code a} and {@code b} of one application, each on a new state directory; closing
     * SIGKILLs both if they still run.
     */
    record Pair(OpsInstance a, OpsInstance b) implements AutoCloseable {

        /** Starts both side by side: the group forms in one rebalance, not one per instance. */
        static Pair start(OpsInstance.Spec spec, String stateDirPrefix) throws IOException {
            Map<String, Path> stateDirs = new LinkedHashMap<>();
            stateDirs.put("a", Files.createTempDirectory(stateDirPrefix + "a-"));
            stateDirs.put("b", Files.createTempDirectory(stateDirPrefix + "b-"));
            List<OpsInstance> ab = OpsInstance.startAll(spec, stateDirs);
            return new Pair(ab.get(0), ab.get(1));
        }

        @Override
        public void close() {
            try {
                b.close();
            } finally {
                a.close();
            }
        }
    }
}
