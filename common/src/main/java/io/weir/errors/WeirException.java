package io.weir.errors;

/**
 * The base of every error Weir throws to an application: catch it to handle whatever Weir reports.
 * Each subtype names a kind of failure and says, in its documentation and its message, what to do
 * about it:
 * <ul>
 *   <li>{@link ConfigException}: a setting is missing or wrong; fix the setting the message names;</li>
 *   <li>{@link TopologyException}: the topology is invalid, or does not fit the topics or the state it
 *       runs on; change the topology or the topics;</li>
 * *   <li>{@link ClusterException}: Kafka could not be reached, refused a request, or lacks a topic;</li>
 *   <li>{@link ServiceUnavailableException}: another service the records need (a schema registry) could not be reached;</li>
 *   <li>{@link StateStoreException}: a state store failed, was closed, or is held by someone else;</li>
 *   <li>{@link SerdeException}: bytes could not be turned into a key or value, or back;</li>
 *   <li>{@link ProcessingException}: processing a record failed and the application stops on it;</li>
 *   <li>{@link InstanceStateException}: a call that the instance's life cycle does not allow now;</li>
 *   <li>{@link InstanceFailedException}: the instance stopped on a fatal error, which is its cause.</li>
 * </ul>
 * Unchecked, as Kafka's and Kafka Streams' errors are. Arguments that are plainly wrong (a negative
 * duration, a null serde) are still reported with the JDK's {@link IllegalArgumentException} and
 * {@link NullPointerException} at the call that passed them.
 */
public abstract class WeirException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    protected WeirException(String message) {
        super(message);
    }

    protected WeirException(String message, Throwable cause) {
        super(message, cause);
    }
}
