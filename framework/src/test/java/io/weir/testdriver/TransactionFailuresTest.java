package io.weir.testdriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;
import io.weir.sink.internal.CommitAbortedException;
import io.weir.sink.internal.TaskMigratedException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A send that fails because the transaction failed (the producer fenced, the transaction aborted)
 * is not the record's failure: the record is processed again, never dead-lettered.
 */
class TransactionFailuresTest {

    /** Passes records on, throwing {@code failure} once, as a send into a failed transaction does. */
    private static Topology failingOnce(Supplier<RuntimeException> failure) {
        AtomicBoolean failed = new AtomicBoolean();
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .peek((k, v) -> {
                    if (!failed.getAndSet(true)) {
                        throw failure.get();
                    }
                })
                .to("out", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    @Test
    void anAbortedTransactionReplaysTheRecordInsteadOfDeadLetteringIt() {
        try (TestDriver driver = TestDriver.builder(failingOnce(
                        () -> new CommitAbortedException("an earlier send failed", new RuntimeException("boom"))))
                .build()) {
            driver.pipe("in", "a", "x", 1_000);
            driver.commit();
            assertThat(driver.output("out", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("x");
            assertThat(driver.deadLetters()).isEmpty();
        }
    }

    @Test
    void aFencedProducerIsTheThreadsProblemNotTheRecords() {
        try (TestDriver driver = TestDriver.builder(
                        failingOnce(() -> new TaskMigratedException("fenced", new RuntimeException("epoch"), true)))
                .build()) {
            // The driver's producer is never fenced for real: it says so instead of dead-lettering.
            assertThatThrownBy(() -> driver.pipe("in", "a", "x", 1_000)).hasMessageContaining("fenced");
        }
    }
}
