package io.weir.samples.fraud;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.samples.common.SampleMain;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The fraud-detection sample on a real broker under exactly-once passes its own check. */
class FraudDetectionIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.perClass();

    @TempDir
    Path stateDir;

    @Test
    void sampleCommandPassesItsCheckAgainstAnExistingCluster() {
        String payments = KAFKA.uniqueTopic("fraud-payments", 3);
        int exit = SampleMain.execute(new FraudDetectionApp(), "--bootstrap-servers", KAFKA.bootstrapServers(),
                "--transactions-topic", payments, "--holders-topic", payments + "-holders", "--alerts-topic",
                payments + "-alerts", "--application-id", "fraud-" + payments, "--partitions", "3", "--cards", "200",
                "--state-dir", stateDir.toString(), "--timeout", "90");

        assertThat(exit).isZero();
    }
}
