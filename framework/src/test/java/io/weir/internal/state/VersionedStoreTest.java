package io.weir.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.internal.state.VersionedStore.PutResult;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueStore;
import io.weir.state.internal.BytesStore;
import java.nio.file.Path;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The history of a versioned table over a changelogged key-value store of bytes, on both backends. */
class VersionedStoreTest {

    private static final StoreSpec SPEC =
            new StoreSpec("prices-versions", Serdes.bytes(), Serdes.bytes(), true, true, null);
    private static final long RETENTION = 100;

    @RegisterExtension
    static final StoreFixture STORES = new StoreFixture();

    @TempDir
    Path dir;

    private final ChangelogHarness kafka = new ChangelogHarness();

    private TaskStore open(Backend backend, String instance) {
        BytesStore committed = STORES.open(backend, dir, SPEC.name() + "-" + instance);
        TaskStore store = new TaskStore(
                SPEC, committed, new TopicPartition(SPEC.changelogTopic("app"), 0), 1 << 20, System::currentTimeMillis);
        STORES.closeAfterTest(store::close);
        return store;
    }

    @SuppressWarnings("unchecked")
    private static VersionedStore<String, Long> versioned(TaskStore store) {
        return new VersionedStore<>(
                (KeyValueStore<byte[], byte[]>) store.typed(),
                Serdes.strings(),
                Serdes.longs(),
                SPEC.name(),
                RETENTION);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void answersTheValueValidAtEachTimeWithOutOfOrderPutsInTheirPlace(Backend backend) {
        VersionedStore<String, Long> v = versioned(open(backend, "a"));
        assertThat(v.put("k", 1L, 10)).isEqualTo(PutResult.LATEST);
        assertThat(v.put("k", 3L, 30)).isEqualTo(PutResult.LATEST);
        assertThat(v.put("k", 2L, 20)).isEqualTo(PutResult.HISTORY); // out of order: between the two
        assertThat(v.put("k", 0L, 5)).isEqualTo(PutResult.HISTORY); // before the first
        assertThat(v.put("kk", 9L, 15)).isEqualTo(PutResult.LATEST); // a key the first is a prefix of

        assertThat(v.get("k", 4)).isNull();
        assertThat(v.get("k", 5)).isEqualTo(0L);
        assertThat(v.get("k", 10)).isEqualTo(1L);
        assertThat(v.get("k", 19)).isEqualTo(1L);
        assertThat(v.get("k", 20)).isEqualTo(2L);
        assertThat(v.get("k", 29)).isEqualTo(2L);
        assertThat(v.get("k", 1_000)).isEqualTo(3L);
        assertThat(v.get("kk", 14)).isNull();
        assertThat(v.get("kk", 15)).isEqualTo(9L);
        assertThat(v.put("k", 33L, 30)).isEqualTo(PutResult.LATEST); // the same time replaces
        assertThat(v.get("k", 30)).isEqualTo(33L);
        assertThat(v.observedTime()).isEqualTo(30);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aTombstoneEndsValidityAndAnOutOfOrderValueBeforeItStaysBoundedByIt(Backend backend) {
        VersionedStore<String, Long> v = versioned(open(backend, "a"));
        v.put("k", 1L, 10);
        assertThat(v.put("k", null, 20)).isEqualTo(PutResult.LATEST);
        assertThat(v.get("k", 15)).isEqualTo(1L);
        assertThat(v.get("k", 20)).isNull();
        assertThat(v.put("k", 2L, 15)).isEqualTo(PutResult.HISTORY); // valid 15 to 20 only
        assertThat(v.get("k", 17)).isEqualTo(2L);
        assertThat(v.get("k", 25)).isNull();
        assertThat(v.put("absent", null, 12)).isEqualTo(PutResult.LATEST);
        assertThat(v.put("absent", 7L, 11)).isEqualTo(PutResult.HISTORY);
        assertThat(v.get("absent", 11)).isEqualTo(7L);
        assertThat(v.get("absent", 12)).isNull();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void forgetsWhatIsOlderThanTheRetentionBehindTheNewestTimeAndRefusesPutsThere(Backend backend) {
        VersionedStore<String, Long> v = versioned(open(backend, "a"));
        v.put("k", 1L, 0);
        v.put("k", 2L, 50);
        v.put("k", 3L, 60);
        v.put("gone", 4L, 10);
        v.put("gone", null, 20);
        v.put("other", 5L, 200); // observed 200: queries from 100 on

        assertThat(v.oldestQueryable()).isEqualTo(100);
        assertThat(v.get("k", 55)).isNull(); // older than the retention: nothing, as Kafka Streams,
        assertThat(v.get("k", 99)).isEqualTo(3L); // unless the key's newest version was valid then
        assertThat(v.get("gone", 25)).isNull(); // (a tombstone is nothing)
        assertThat(v.get("k", 100)).isEqualTo(3L); // the version valid at 100 is kept
        assertThat(v.put("k", 9L, 99)).isEqualTo(PutResult.EXPIRED);
        assertThat(v.put("k", 8L, 130)).isEqualTo(PutResult.LATEST);

        // a put prunes its own key: 1 (to 50) and 2 (to 60) can never be asked for again; 3 (60 to 130) can
        assertThat(v.versions("k")).extracting(KeyValue::key).containsExactly(60L, 130L);
        assertThat(v.put("k", 7L, 120)).isEqualTo(PutResult.HISTORY);
        assertThat(v.get("k", 125)).isEqualTo(7L);
        // a sweep prunes keys no longer written: the tombstone at 20 and the version before it
        assertThat(v.versions("gone")).hasSize(2);
        assertThat(v.sweep(2)).isZero(); // a bounded step: "gone" is not reached yet
        int deleted = 0;
        for (int step = 0; step < 10; step++) {
            deleted += v.sweep(2); // walks on, wrapping around
        }
        assertThat(deleted).isEqualTo(2);
        assertThat(v.versions("gone")).isEmpty();
        assertThat(v.versions("other")).hasSize(1);
        assertThat(v.get("k", 150)).isEqualTo(8L);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void comesBackExactlyFromTheChangelog(Backend backend) {
        TaskStore original = open(backend, "original");
        VersionedStore<String, Long> v = versioned(original);
        v.put("k", 1L, 10);
        v.put("k", 3L, 30);
        kafka.commit(original);
        v.put("k", 2L, 20);
        v.put("k", null, 40);
        v.put("j", 5L, 35);
        kafka.commit(original);

        TaskStore restored = open(backend, "restored");
        kafka.restore(new TopicPartition(SPEC.changelogTopic("app"), 0), restored.committed());
        VersionedStore<String, Long> r = versioned(restored);

        assertThat(r.observedTime()).isEqualTo(40);
        assertThat(r.versions("k")).isEqualTo(v.versions("k"));
        assertThat(r.versions("j")).isEqualTo(v.versions("j"));
        for (long t = 0; t <= 50; t++) {
            assertThat(r.get("k", t)).as("k at %d", t).isEqualTo(v.get("k", t));
        }
        assertThat(r.put("k", 0L, -70)).isEqualTo(PutResult.EXPIRED); // the restored observed time bounds puts
    }
}
