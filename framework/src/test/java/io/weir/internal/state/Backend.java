package io.weir.internal.state;

import io.weir.state.internal.BytesStore;
import io.weir.state.memory.MemoryStore;
import io.weir.state.rocksdb.RocksDbResources;
import io.weir.state.rocksdb.RocksDbStore;
import java.nio.file.Path;

/** The committed stores a typed store is tested over. */
enum Backend {
    MEMORY {
        @Override
        BytesStore open(Path dir, String name, RocksDbResources resources) {
            return MemoryStore.create(name);
        }
    },
    ROCKSDB {
        @Override
        BytesStore open(Path dir, String name, RocksDbResources resources) {
            return RocksDbStore.open(dir.resolve(name), name, resources);
        }
    };

    abstract BytesStore open(Path dir, String name, RocksDbResources resources);
}
