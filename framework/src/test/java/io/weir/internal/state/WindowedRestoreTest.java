package io.weir.internal.state;

import static io.weir.internal.state.ExpiryTest.SESSIONS;
import static io.weir.internal.state.ExpiryTest.WINDOWS;
import static io.weir.internal.state.ExpiryTest.sessions;
import static io.weir.internal.state.ExpiryTest.windows;
import static io.weir.internal.state.TypedWindowStoreTest.drain;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.topology.StoreSpec;
import io.weir.state.SessionStore;
import io.weir.state.WindowStore;
import io.weir.state.Windowed;
import io.weir.state.internal.BytesStore;
import java.nio.file.Path;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Window and session stores are restored from their changelog like key-value stores: the
 * composite keys are ordinary bytes, so the changelog and restore paths need nothing new.
 */
class WindowedRestoreTest {

    @RegisterExtension
    static final StoreFixture STORES = new StoreFixture();

    @TempDir
    Path dir;

    private final ChangelogHarness kafka = new ChangelogHarness();

    private TaskStore open(StoreSpec spec, Backend backend, String instance) {
        BytesStore committed = STORES.open(backend, dir, spec.name() + "-" + instance);
        TaskStore store = new TaskStore(spec, committed, changelogOf(spec), 1 << 20, System::currentTimeMillis);
        STORES.closeAfterTest(store::close);
        return store;
    }

    private static TopicPartition changelogOf(StoreSpec spec) {
        return new TopicPartition(spec.changelogTopic("app"), 3);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void windowsComeBackFromTheChangelogIncludingDeletes(Backend backend) {
        TaskStore original = open(WINDOWS, backend, "original");
        WindowStore<String, Long> w = windows(original);
        w.put("a", -10, 1L);
        w.put("a", 0, 2L);
        w.put("ab", 0, 3L);
        kafka.commit(original);
        w.put("a", 0, 20L);
        w.put("a", -10, null);
        kafka.commit(original);

        TaskStore restored = open(WINDOWS, backend, "restored");
        assertThat(kafka.restore(changelogOf(WINDOWS), restored.committed())).isEqualTo(5);

        WindowStore<String, Long> r = windows(restored);
        assertThat(drain(r.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE))).containsExactly("a@0..10=20", "ab@0..10=3");
        assertThat(r.fetch("a", -10)).isNull();
        assertThat(restored.committed().changelogOffset())
                .isEqualTo(original.committed().changelogOffset());
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void sessionsComeBackWithTheirIndexFromTheChangelog(Backend backend) {
        TaskStore original = open(SESSIONS, backend, "original");
        SessionStore<String, Long> s = sessions(original);
        s.put(new Windowed<>("a", 0, 10), 1L);
        s.put(new Windowed<>("b", 5, 5), 2L);
        kafka.commit(original);
        // a session-windowed aggregation merging a record at 12 into a's session
        s.remove(new Windowed<>("a", 0, 10));
        s.put(new Windowed<>("a", 0, 12), 3L);
        kafka.commit(original);
        assertThat(kafka.sent(changelogOf(SESSIONS))).hasSize(8); // two records per session write

        TaskStore restored = open(SESSIONS, backend, "restored");
        kafka.restore(changelogOf(SESSIONS), restored.committed());

        SessionStore<String, Long> r = sessions(restored);
        assertThat(drain(r.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE))).containsExactly("b@5..5=2", "a@0..12=3");
        assertThat(drain(r.findSessions("a", 0, 100))).containsExactly("a@0..12=3");
        TypedSessionStoreTest.assertIndexMatchesPrimaries(restored.committed(), 2);

        restored.dropExpired(17); // expiry works on a restored store: a (end 12) + 5 <= 17
        assertThat(drain(r.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE))).isEmpty();
    }
}
