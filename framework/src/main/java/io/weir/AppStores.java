package io.weir;

import io.weir.errors.InstanceStateException;
import io.weir.internal.state.LocalStores;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.state.ReadOnlySessionStore;
import io.weir.state.ReadOnlyWindowStore;
import java.util.function.Supplier;

/**
 * The stores of an application as {@link WeirApp}'s reads see them: a task store over the tasks
 * this instance runs now ({@link LocalStores}), a global table's store from the running instance.
 * Any thread may use it.
 */
final class AppStores {

    private final TopologyModel model;
    private final LocalStores localStores;
    /** The started parts; null before the instance started. */
    private final Supplier<RunningInstance> instance;

    AppStores(TopologyModel model, LocalStores localStores, Supplier<RunningInstance> instance) {
        this.model = model;
        this.localStores = localStores;
        this.instance = instance;
    }

    /** See {@link WeirApp#store(String)}. */
    @SuppressWarnings("unchecked")
    <K, V> ReadOnlyKeyValueStore<K, V> keyValue(String name) {
        if (model.globalTables().containsKey(name)) {
            RunningInstance i = instance.get();
            if (i == null) {
                throw new InstanceStateException("global table '" + name + "' is read once the instance has started");
            }
            return (ReadOnlyKeyValueStore<K, V>) i.globalStore(name);
        }
        return localStores.view(model.store(name, StoreSpec.Kind.KEY_VALUE));
    }

    <K, V> ReadOnlyWindowStore<K, V> window(String name) {
        return localStores.windowView(model.store(name, StoreSpec.Kind.WINDOW));
    }

    <K, V> ReadOnlySessionStore<K, V> session(String name) {
        return localStores.sessionView(model.store(name, StoreSpec.Kind.SESSION));
    }
}
