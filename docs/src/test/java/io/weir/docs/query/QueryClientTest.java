package io.weir.docs.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.query.QueryAnswer;
import io.weir.query.QueryException;
import io.weir.query.StoreQueryClient;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** docs/querying.md: the Java client (here against no instance: it fails after its deadline, naming what it tried). */
class QueryClientTest {

    static Optional<QueryAnswer> count(String user) {
        // tag::client[]
        StoreQueryClient queries = StoreQueryClient.builder()
                .endpoint("http://127.0.0.1:1") // any instances; more than one to survive one's loss
                .endpoint("http://127.0.0.1:2")
                .deadline(Duration.ofMillis(300)) // retries included
                .build();
        Optional<QueryAnswer> clicks = queries.get("clicks-per-user", user); // the active copy
        Optional<QueryAnswer> recent = queries.get("clicks-per-user", user, 1_000); // or a copy <= 1,000 records behind
        // end::client[]
        return clicks.or(() -> recent);
    }

    @Test
    void aClientWithNoInstanceToAskFailsAfterItsDeadlineSayingWhatItTried() {
        assertThatThrownBy(() -> count("alice")).isInstanceOfSatisfying(QueryException.class, e -> {
            assertThat(e.unavailable()).isTrue();
            assertThat(e.getMessage()).contains("no instance answered within").contains("127.0.0.1:");
        });
    }
}
