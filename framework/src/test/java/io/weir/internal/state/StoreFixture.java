package io.weir.internal.state;

import io.weir.state.internal.BytesStore;
import io.weir.state.rocksdb.RocksDbResources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The stores of a store test: RocksDB resources shared by a test class (created before its first
 * test, closed after its last) and what each test opened, closed after it in the order opened.
 * Register it on a static field: {@code @RegisterExtension static final StoreFixture STORES = new StoreFixture();}.
 */
final class StoreFixture implements BeforeAllCallback, AfterAllCallback, AfterEachCallback {

    private final List<AutoCloseable> opened = new ArrayList<>();
    private RocksDbResources resources;

    @Override
    public void beforeAll(ExtensionContext context) {
        resources = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(32L << 20));
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
        opened.clear();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        resources.close();
    }

    RocksDbResources resources() {
        return resources;
    }

    /** A committed store of {@code backend} named {@code name} under {@code dir}; not closed by the fixture. */
    BytesStore open(Backend backend, Path dir, String name) {
        return backend.open(dir, name, resources);
    }

    /** Closes {@code closeable} after the test; returns it. */
    <T extends AutoCloseable> T closeAfterTest(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    /** How many were registered by this test so far (to name stores apart). */
    int openedCount() {
        return opened.size();
    }
}
