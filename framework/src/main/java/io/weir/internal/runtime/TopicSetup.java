package io.weir.internal.runtime;

import io.weir.WeirConfig;
import io.weir.internal.topology.TopologyModel;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Start-up checks against the cluster: fixed input and output topics must exist (a typo should
 * fail the start, not idle forever), and the dead-letter topic is created when missing.
 */
public final class TopicSetup {

    private static final long TIMEOUT_S = 30;

    private final Admin admin;
    private final WeirConfig config;
    private final TopologyModel model;

    public TopicSetup(Admin admin, WeirConfig config, TopologyModel model) {
        this.admin = admin;
        this.config = config;
        this.model = model;
    }

    public void verifyAndCreate() {
        Set<String> existing = listTopics();
        Set<String> missing = new TreeSet<>();
        Set<String> wanted = new LinkedHashSet<>(model.sourceTopics());
        wanted.addAll(model.sinkTopics());
        for (String t : wanted) {
            if (!existing.contains(t)) {
                missing.add(t);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("topic(s) " + missing + " do not exist on " + config.bootstrapServers()
                    + "; create them before starting " + config.applicationId());
        }
        if (!existing.contains(config.deadLetterTopic())) {
            createDeadLetterTopic();
        }
    }

    private Set<String> listTopics() {
        try {
            return admin.listTopics().names().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot reach Kafka at bootstrap.servers=" + config.bootstrapServers()
                    + " within " + TIMEOUT_S + " s: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing topics", e);
        }
    }

    private void createDeadLetterTopic() {
        NewTopic topic = new NewTopic(config.deadLetterTopic(), Optional.of(1), Optional.empty())
                .configs(Map.of("max.message.bytes", Integer.toString(config.deadLetterMaxMessageBytes())));
        try {
            admin.createTopics(List.of(topic)).all().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create the dead-letter topic '" + config.deadLetterTopic()
                        + "': " + e.getCause(), e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("timed out creating the dead-letter topic " + config.deadLetterTopic(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }
}
