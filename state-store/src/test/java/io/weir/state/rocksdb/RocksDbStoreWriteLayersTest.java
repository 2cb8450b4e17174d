package io.weir.state.rocksdb;

import io.weir.state.internal.BytesStore;
import io.weir.state.internal.WriteLayersContract;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class RocksDbStoreWriteLayersTest extends WriteLayersContract {

    @RegisterExtension
    static final RocksDbBudget ROCKSDB = new RocksDbBudget();

    @TempDir
    Path dir;

    @Override
    protected BytesStore create(String name) {
        return ROCKSDB.open(dir, name);
    }
}
