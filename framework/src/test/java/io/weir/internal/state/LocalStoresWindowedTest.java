package io.weir.internal.state;

import static io.weir.internal.state.ExpiryTest.SESSIONS;
import static io.weir.internal.state.ExpiryTest.WINDOWS;
import static io.weir.internal.state.TypedWindowStoreTest.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.processor.TaskId;
import io.weir.state.ReadOnlySessionStore;
import io.weir.state.ReadOnlyWindowStore;
import io.weir.state.SessionStore;
import io.weir.state.WindowStore;
import io.weir.state.Windowed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading window and session stores across the tasks of an instance, committed state only. */
class LocalStoresWindowedTest {

    @TempDir
    Path dir;

    private final LocalStores local = new LocalStores(System::currentTimeMillis);
    private final List<TaskStores> tasks = new ArrayList<>();

    @AfterEach
    void closeTasks() {
        tasks.forEach(TaskStores::close);
    }

    private TaskStores task(int partition) {
        TaskId id = new TaskId(0, partition);
        TaskStores stores = TaskStores.open(
                List.of(WINDOWS.withPersistent(false), SESSIONS.withPersistent(false)),
                id,
                dir.resolve(id.toString()),
                new TaskStores.Options("app", null, Duration.ofSeconds(10), 0, System::currentTimeMillis));
        local.register(id, stores);
        tasks.add(stores);
        return stores;
    }

    @SuppressWarnings("unchecked")
    private static <T> T typed(TaskStores stores, String name) {
        return (T) stores.typedByName().get(name);
    }

    @Test
    void aWindowViewMergesTheTasksInStartThenKeyOrderAndSeesCommittedStateOnly() {
        TaskStores t0 = task(0);
        TaskStores t1 = task(1);
        WindowStore<String, Long> w0 = typed(t0, "windows");
        WindowStore<String, Long> w1 = typed(t1, "windows");
        w0.put("b", 0, 1L);
        w1.put("a", 0, 2L);
        w1.put("c", -10, 3L);
        w0.put("d", 10, 4L);
        t0.commit();
        t1.commit();
        w0.put("a", -20, 5L); // not committed: invisible

        ReadOnlyWindowStore<String, Long> view = local.windowView(WINDOWS);
        assertThat(drain(view.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE)))
                .containsExactly("c@-10..0=3", "a@0..10=2", "b@0..10=1", "d@10..20=4");
        assertThat(view.fetch("a", 0)).isEqualTo(2L);
        assertThat(view.fetch("a", -20)).isNull();
        assertThat(drain(view.fetch("b", 0, 10))).containsExactly("b@0..10=1");
        assertThat(view.windowSize()).isEqualTo(10);
    }

    @Test
    void aSessionViewFindsSessionsInWhicheverTaskHoldsThem() {
        TaskStores t0 = task(0);
        TaskStores t1 = task(1);
        SessionStore<String, Long> s0 = typed(t0, "sessions");
        SessionStore<String, Long> s1 = typed(t1, "sessions");
        s0.put(new Windowed<>("a", 0, 10), 1L);
        s1.put(new Windowed<>("b", 2, 4), 2L);
        t0.commit();
        t1.commit();

        ReadOnlySessionStore<String, Long> view = local.sessionView(SESSIONS);
        assertThat(drain(view.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE))).containsExactly("b@2..4=2", "a@0..10=1");
        assertThat(drain(view.findSessions("b", 0, 10))).containsExactly("b@2..4=2");
        assertThat(view.fetchSession("a", 0, 10)).isEqualTo(1L);
    }

    @Test
    void aViewOfTheWrongKindIsRefusedWithTheStoresName() {
        assertThatThrownBy(() -> local.view(WINDOWS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'windows' is a window store");
        assertThatThrownBy(() -> local.windowView(SESSIONS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'sessions' is a session store");
    }
}
