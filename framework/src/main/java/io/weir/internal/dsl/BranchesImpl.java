package io.weir.internal.dsl;

import io.weir.dsl.Branches;
import io.weir.dsl.RecordStream;
import io.weir.errors.TopologyException;
import io.weir.internal.operator.stateless.StatelessProcessors;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;

/** Collects branches, then adds one routing node and a named child node per branch. */
final class BranchesImpl<K, V> implements Branches<K, V> {

    private final RecordStreamImpl<K, V> parent;
    private final List<String> names = new ArrayList<>();
    private final List<BiPredicate<? super K, ? super V>> predicates = new ArrayList<>();
    private boolean done;

    BranchesImpl(RecordStreamImpl<K, V> parent) {
        this.parent = parent;
    }

    @Override
    public Branches<K, V> branch(String name, BiPredicate<? super K, ? super V> predicate) {
        checkOpen();
        Objects.requireNonNull(predicate, "predicate");
        if (names.contains(Objects.requireNonNull(name, "name"))) {
            throw new TopologyException("branch '" + name + "' is already defined");
        }
        names.add(name);
        predicates.add(predicate);
        return this;
    }

    @Override
    public Map<String, RecordStream<K, V>> otherwise(String name) {
        Objects.requireNonNull(name, "name");
        if (names.contains(name)) {
            throw new TopologyException("branch '" + name + "' is already defined");
        }
        return finish(name);
    }

    @Override
    public Map<String, RecordStream<K, V>> noDefault() {
        return finish(null);
    }

    private Map<String, RecordStream<K, V>> finish(String defaultName) {
        checkOpen();
        done = true;
        String splitNode = parent.graph().newName("split");
        List<String> childNodes = new ArrayList<>();
        for (String n : names) {
            childNodes.add(splitNode + "-" + n);
        }
        String defaultNode = defaultName == null ? null : splitNode + "-" + defaultName;
        parent.graph()
                .addProcessor(
                        splitNode,
                        StatelessProcessors.<K, V>branch(List.copyOf(predicates), List.copyOf(childNodes), defaultNode),
                        List.of(parent.node()));
        Map<String, RecordStream<K, V>> result = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            result.put(names.get(i), addChild(splitNode, childNodes.get(i)));
        }
        if (defaultName != null) {
            result.put(defaultName, addChild(splitNode, defaultNode));
        }
        return Collections.unmodifiableMap(result);
    }

    private RecordStream<K, V> addChild(String splitNode, String childNode) {
        parent.graph().addProcessor(childNode, StatelessProcessors.passThrough(), List.of(splitNode));
        return parent.child(childNode);
    }

    private void checkOpen() {
        if (done) {
            throw new TopologyException("this split is finished");
        }
    }
}
