package io.weir.docs.testing;

import io.weir.common.KeyValue;
import io.weir.testkit.KafkaExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/testing.md: a test on a real broker with the testkit. Compiled against the testkit but not
 * run: it needs a broker and an application to start, which the snippet leaves out. The starter's
 * AlertServiceIT is the complete version, run by StarterIT.
 */
@Disabled("an outline for docs/testing.md: it starts no application")
class KafkaExtensionExample {

    // tag::testkit[]
    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun(); // one broker per test JVM

    @Test
    void alertsAreWritten() {
        String in = KAFKA.uniqueTopic("readings", 4);
        KAFKA.client().produceStrings(in, List.of(KeyValue.of("s1", "{...}")));
        // start your WeirApp with KAFKA.bootstrapServers(), then:
        KAFKA.client().readStringsAtLeast("alerts", 1, Duration.ofSeconds(30)); // read_committed
    }
    // end::testkit[]
}
