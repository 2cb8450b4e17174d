package io.weir.internal.http;

import java.util.List;
import java.util.Map;

/**
 * What {@code /info} shows.
 *
 * @param version       Weir's version
 * @param applicationId {@code application.id}
 * @param instanceId    the stable instance id
 * @param guarantee     {@code processing.guarantee}, as configured ({@code exactly_once}, ...)
 * @param state         the instance's state ({@code RUNNING}, ...)
 * @param tasksByThread active task ids ({@code 0_3}) per stream thread name, sorted
 * @param standbyTasks  the standby tasks this instance keeps (warm-ups included), sorted
 * @param warmupTasks   the standbys placed here to take their task over once caught up, sorted
 */
public record InstanceInfo(
        String version,
        String applicationId,
        String instanceId,
        String guarantee,
        String state,
        Map<String, List<String>> tasksByThread,
        List<String> standbyTasks,
        List<String> warmupTasks) {

    public InstanceInfo {
        tasksByThread = Map.copyOf(tasksByThread);
        standbyTasks = List.copyOf(standbyTasks);
        warmupTasks = List.copyOf(warmupTasks);
    }
}
