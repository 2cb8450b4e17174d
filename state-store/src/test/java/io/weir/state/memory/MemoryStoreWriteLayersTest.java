package io.weir.state.memory;

import io.weir.state.internal.BytesStore;
import io.weir.state.internal.WriteLayersContract;

class MemoryStoreWriteLayersTest extends WriteLayersContract {

    @Override
    protected BytesStore create(String name) {
        return MemoryStore.create(name);
    }
}
