package io.weir.state.rocksdb;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The RocksDB memory budget (32 MiB) a test class's stores share: created before its first test
 * and closed after its last, which fails if a test left a store open. Register it as a static
 * {@code @RegisterExtension} field.
 */
public final class RocksDbBudget implements BeforeAllCallback, AfterAllCallback {

    private RocksDbResources resources;

    @Override
    public void beforeAll(ExtensionContext context) {
        resources = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(32L << 20));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        resources.close();
    }

    public RocksDbResources resources() {
        return resources;
    }

    /** Opens (or creates) the store {@code name} in {@code dir/name}. */
    public RocksDbStore open(Path dir, String name) {
        return RocksDbStore.open(dir.resolve(name), name, resources);
    }
}
