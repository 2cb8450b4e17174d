package io.weir.internal.operator.table;

import io.weir.internal.task.InternalContext;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which children of a table's node take its {@link Change}s (the table steps: derived tables,
 * re-keying, table-table joins) and which take its plain updates (the steps of its
 * {@code toStream()}, which thus needs no node of its own: a topology's nodes, and so its
 * description and compatibility, are the same as before tables had steps). Filled while the
 * topology is built, read by the table's processor instances.
 */
public final class TableChildren {

    private final Set<String> takingChanges = ConcurrentHashMap.newKeySet();

    /** The child {@code node} takes this table's changes. */
    public void addChangeChild(String node) {
        takingChanges.add(node);
    }

    /**
     * Forwards a change: as is to the children that take changes, its new value (a {@code null}
     * for a deletion) to the others.
     */
    public <K, V> void forward(ProcessorContext<K, ?> context, Record<K, Change<V>> change) {
        @SuppressWarnings("unchecked")
        ProcessorContext<K, Object> out = (ProcessorContext<K, Object>) context;
        if (takingChanges.isEmpty()) {
            out.forward(change.withValue(change.value().newValue()));
            return;
        }
        List<String> children = ((InternalContext) context).childNames();
        for (String child : children) {
            if (takingChanges.contains(child)) {
                out.forward(change, child);
            } else {
                out.forward(change.withValue(change.value().newValue()), child);
            }
        }
    }
}
