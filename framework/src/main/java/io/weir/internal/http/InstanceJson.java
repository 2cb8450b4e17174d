package io.weir.internal.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.internal.json.Json;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** JSON of the health reports and of {@link InstanceInfo}, as the endpoints show them. */
final class InstanceJson {

    private InstanceJson() {}

    /**
     * {@code {"status":"UP"|"DOWN","state":"RUNNING","problems":[{"kind":..,"message":..,...}]}};
     * a problem's details sit beside kind and message, sorted by name, and cannot override them.
     */
    static ObjectNode health(HealthReport report) {
        ObjectNode json =
                Json.object().put("status", report.ok() ? "UP" : "DOWN").put("state", report.state());
        ArrayNode problems = json.putArray("problems");
        for (Problem p : report.problems()) {
            ObjectNode problem = problems.addObject().put("kind", p.kind()).put("message", p.message());
            new TreeMap<>(p.details()).forEach((name, value) -> {
                if (!problem.has(name)) {
                    problem.set(name, Json.tree(value));
                }
            });
        }
        return json;
    }

    /** The fields of {@link InstanceInfo} by their record names; threads sorted by name. */
    static ObjectNode info(InstanceInfo info) {
        ObjectNode json = Json.object()
                .put("version", info.version())
                .put("applicationId", info.applicationId())
                .put("instanceId", info.instanceId())
                .put("guarantee", info.guarantee())
                .put("state", info.state());
        ObjectNode threads = json.putObject("tasksByThread");
        for (Map.Entry<String, List<String>> e : new TreeMap<>(info.tasksByThread()).entrySet()) {
            ArrayNode tasks = threads.putArray(e.getKey());
            e.getValue().forEach(tasks::add);
        }
        info.standbyTasks().forEach(json.putArray("standbyTasks")::add);
        info.warmupTasks().forEach(json.putArray("warmupTasks")::add);
        return json;
    }
}
