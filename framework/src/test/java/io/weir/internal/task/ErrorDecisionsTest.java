package io.weir.internal.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.ServiceUnavailableException;
import io.weir.processor.ErrorHandler;
import io.weir.processor.ErrorResponse;
import io.weir.processor.TaskId;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class ErrorDecisionsTest {

    private static final RecordFailure FAILURE = new RecordFailure(
            new TaskId(0, 0),
            new ConsumerRecord<>("in", 0, 7L, new byte[] {1}, new byte[] {2}),
            Stage.PROCESS,
            new IllegalStateException("bad"),
            "p",
            null);

    @Test
    void theHandlersAnswerIsTheDecision() {
        ErrorDecisions.Decision d = new ErrorDecisions(f -> ErrorResponse.skip()).decide(FAILURE);
        assertThat(d.response()).isEqualTo(ErrorResponse.skip());
    }

    @Test
    void theHandlerSeesTheRecordTheNodeAndTheError() {
        ErrorDecisions decisions = new ErrorDecisions(f -> {
            assertThat(f.topic()).isEqualTo("in");
            assertThat(f.offset()).isEqualTo(7L);
            assertThat(f.processor()).isEqualTo("p");
            assertThat(f.task()).isEqualTo(new TaskId(0, 0));
            assertThat(f.processed()).isEmpty();
            assertThat(f.error()).hasMessage("bad");
            return ErrorResponse.deadLetter();
        });
        assertThat(decisions.decide(FAILURE).response()).isEqualTo(ErrorResponse.deadLetter());
    }

    @Test
    void aHandlerThatThrowsOrAnswersNullFailsNamingItself() {
        ErrorHandler throwing = f -> {
            throw new IllegalArgumentException("oops");
        };
        ErrorDecisions.Decision d = new ErrorDecisions(throwing).decide(FAILURE);
        assertThat(d.response()).isEqualTo(ErrorResponse.fail());
        assertThat(d.whyFail())
                .contains(throwing.getClass().getName())
                .contains("threw")
                .contains("oops");

        ErrorHandler silent = f -> null;
        ErrorDecisions.Decision n = new ErrorDecisions(silent).decide(FAILURE);
        assertThat(n.response()).isEqualTo(ErrorResponse.fail());
        assertThat(n.whyFail()).contains(silent.getClass().getName()).contains("returned null");
    }

    @Test
    void theDefaultHandlersAreNamedByTheSetting() {
        assertThat(new ErrorDecisions(ErrorHandler.fail()).decide(FAILURE).whyFail())
                .isEqualTo("error.mode=fail");
        assertThat(new ErrorDecisions(ErrorHandler.deadLetter()).name()).isEqualTo("error.mode=dead_letter");
    }

    @Test
    void anUnavailableServiceStopsWithoutAskingTheHandler() {
        ServiceUnavailableException down = new ServiceUnavailableException("schema registry http://r:8081 is down");
        AtomicInteger asked = new AtomicInteger();
        ErrorDecisions decisions = new ErrorDecisions(f -> {
            asked.incrementAndGet();
            return ErrorResponse.skip();
        });
        for (Stage stage : Stage.values()) {
            // however it is wrapped: by a stage, an asynchronous call, the user's own code
            Throwable wrapped = new StageException(
                    stage, "wrapped", new CompletionException(new IllegalStateException("lookup failed", down)));
            RecordFailure failure = new RecordFailure(FAILURE.task(), FAILURE.record(), stage, wrapped, "p", null);
            assertThatThrownBy(() -> decisions.decide(failure))
                    .isInstanceOf(ServiceUnavailableException.class)
                    .hasMessageStartingWith("record in-0@7 could not " + stage.label())
                    .hasMessageContaining("nothing was dead-lettered")
                    .hasMessageEndingWith("schema registry http://r:8081 is down")
                    .hasCause(down);
        }
        assertThat(asked).hasValue(0);
    }

    @Test
    void onlyAnUnavailableServiceAmongTheCausesCounts() {
        ServiceUnavailableException down = new ServiceUnavailableException("down");
        assertThat(ErrorDecisions.unavailable(down)).isSameAs(down);
        assertThat(ErrorDecisions.unavailable(new RuntimeException(new RuntimeException(down))))
                .isSameAs(down);
        assertThat(ErrorDecisions.unavailable(new IllegalStateException("bad"))).isNull();
        assertThat(ErrorDecisions.unavailable(null)).isNull();
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b); // a cycle ends the search, not the thread
        assertThat(ErrorDecisions.unavailable(a)).isNull();
        ErrorDecisions.requireAvailable(FAILURE.record(), Stage.PROCESS, a); // returns
    }
}
