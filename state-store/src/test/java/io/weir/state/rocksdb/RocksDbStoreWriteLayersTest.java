package io.weir.state.rocksdb;

import io.weir.state.internal.BytesStore;
import io.weir.state.internal.WriteLayersContract;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

class RocksDbStoreWriteLayersTest extends WriteLayersContract {

    private static RocksDbResources resources;

    @TempDir
    Path dir;

    @BeforeAll
    static void createResources() {
        resources = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(32L << 20));
    }

    @AfterAll
    static void closeResources() {
        resources.close();
    }

    @Override
    protected BytesStore create(String name) {
        return RocksDbStore.open(dir.resolve(name), name, resources);
    }
}
