package io.weir.state.rocksdb;

import static io.weir.state.internal.Bytes.b;
import static io.weir.state.internal.Bytes.batch;
import static io.weir.state.internal.Bytes.entries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.StoreCorruptedException;
import io.weir.errors.StoreLockedException;
import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.BytesStore;
import io.weir.state.internal.BytesStoreContract;
import io.weir.state.internal.WriteBatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class RocksDbStoreTest extends BytesStoreContract {

    @RegisterExtension
    static final RocksDbBudget ROCKSDB = new RocksDbBudget();

    @TempDir
    Path dir;

    @Override
    protected BytesStore create(String name) {
        return ROCKSDB.open(dir, name);
    }

    @Override
    protected boolean persistent() {
        return true;
    }

    @Override
    protected BytesStore reopen(BytesStore closed) {
        return RocksDbStore.open(((RocksDbStore) closed).directory(), closed.name(), ROCKSDB.resources());
    }

    @Test
    void iteratorsSeeTheStoreAsItWasWhenTheyWereCreated() {
        BytesStore store = storeWithLetters();
        try (BytesIterator it = store.all(false)) {
            store.apply(batch("c=3", "f=-"), 5);
            assertThat(entries(it)).containsExactly("a=1", "b=2", "d=4", "f=6");
        }
    }

    @Test
    void iteratorsOpenedBeforeARangeDeleteStillSeeTheDeletedEntries() {
        BytesStore store = storeWithLetters();
        try (BytesIterator it = store.all(false)) {
            store.deleteRange(b("a"), b("e"));
            assertThat(entries(it)).containsExactly("a=1", "b=2", "d=4", "f=6");
        }
        assertThat(entries(store.all(false))).containsExactly("f=6");
    }

    @Test
    void damagedStoreDirectoryIsReportedAsCorrupted() throws IOException {
        Path storeDir = dir.resolve("damaged");
        RocksDbStore.open(storeDir, "damaged", ROCKSDB.resources()).close();
        try (Stream<Path> files = Files.list(storeDir)) {
            for (Path manifest : (Iterable<Path>)
                    files.filter(p -> p.getFileName().toString().startsWith("MANIFEST"))::iterator) {
                Files.write(manifest, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
            }
        }
        assertThatThrownBy(() -> RocksDbStore.open(storeDir, "damaged", ROCKSDB.resources()))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining("damaged");
        // the framework's answer: wipe and start again (then restore from the changelog)
        RocksDbStore.deleteRecursively(storeDir);
        RocksDbStore.open(storeDir, "damaged", ROCKSDB.resources()).close();
    }

    @Test
    void fileInPlaceOfTheStoreDirectoryIsReportedAsCorrupted() throws IOException {
        Path notADir = Files.writeString(dir.resolve("file"), "not a store");
        assertThatThrownBy(() -> RocksDbStore.open(notADir, "file", ROCKSDB.resources()))
                .isInstanceOf(StoreCorruptedException.class);
    }

    @Test
    void directoryHeldByAnOpenStoreIsNotReportedAsCorrupted() {
        Path storeDir = dir.resolve("held");
        try (RocksDbStore held = RocksDbStore.open(storeDir, "held", ROCKSDB.resources())) {
            assertThatThrownBy(() -> RocksDbStore.open(storeDir, "held", ROCKSDB.resources()))
                    .isInstanceOf(StoreLockedException.class)
                    .isNotInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("locked");
            assertThat(held.get(b("a"))).isNull();
        }
    }

    @Test
    void aFileOfAnIngestionCutShortIsDeletedWhenTheStoreOpens() throws IOException {
        Path storeDir = dir.resolve("cut-short");
        RocksDbStore store = RocksDbStore.open(storeDir, "cut-short", ROCKSDB.resources());
        store.ingest(batch("a=1", "b=2"), 2);
        store.close();
        Path left = Files.writeString(storeDir.resolve("weir-ingest-7.sst"), "half a file");

        try (RocksDbStore reopened = RocksDbStore.open(storeDir, "cut-short", ROCKSDB.resources())) {
            assertThat(left).doesNotExist();
            assertThat(entries(reopened.all(false))).containsExactly("a=1", "b=2");
            assertThat(reopened.changelogOffset()).hasValue(2);
        }
    }

    @Test
    void destroyDeletesTheStoreDirectory() {
        Path storeDir = dir.resolve("doomed");
        RocksDbStore store = RocksDbStore.open(storeDir, "doomed", ROCKSDB.resources());
        store.apply(batch("a=1"), 1);
        store.destroy();
        assertThat(storeDir).doesNotExist();
    }

    @Test
    void resourcesRefuseToCloseWhileAStoreIsOpen() {
        try (RocksDbResources own = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(16L << 20))) {
            RocksDbStore store = RocksDbStore.open(dir.resolve("r"), "r", own);
            assertThatThrownBy(own::close)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("still open");
            store.close();
        }
    }

    @Test
    void writesBeyondTheMemtableBudgetAreFlushedAndStayReadable() {
        // 16 MiB in total, 8 MiB of memtables shared by two stores: forces flushes to SST files
        try (RocksDbResources small = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(16L << 20));
                RocksDbStore one = RocksDbStore.open(dir.resolve("one"), "one", small);
                RocksDbStore two = RocksDbStore.open(dir.resolve("two"), "two", small)) {
            byte[] value = new byte[1024];
            for (int round = 0; round < 20; round++) {
                WriteBatch batch = new WriteBatch();
                for (int i = 0; i < 1000; i++) {
                    batch.put(b(String.format("key-%02d-%04d", round, i)), value);
                }
                one.apply(batch, round + 1);
                two.apply(batch, round + 1);
            }
            assertThat(small.usage()).isLessThanOrEqualTo(16L << 20);
            assertThat(one.get(b("key-00-0000"))).hasSize(1024);
            assertThat(two.approximateCount()).isBetween(15_000L, 25_000L);
            assertThat(one.directory().toFile().list((d, name) -> name.endsWith(".sst")))
                    .isNotEmpty();
        }
    }
}
