/**
 * Schema-registry serdes: Avro (generic and specific records), Protobuf and JSON Schema in the
 * registry's wire format, made by {@link io.weir.serde.registry.RegistrySerdes} from a
 * {@link io.weir.serde.registry.SchemaRegistry}, with Confluent's subject strategies
 * ({@link io.weir.serde.registry.SubjectStrategy}) and auto-registration on or off
 * ({@link io.weir.serde.registry.RegistrySerdeOptions}). The module also brings the format
 * evolution rules ({@link io.weir.serde.FormatEvolution}) that let Weir's compatibility checks
 * judge a schema change as the registry would.
 */
package io.weir.serde.registry;
