//! SPARQL queries over a snapshot of the store, answered serialized: solutions in JSON, XML, CSV or TSV,
//! graphs in Turtle, N-Triples, N-Quads or JSON-LD, cut after a number of rows.

use crate::StoreError;
use oxigraph::io::{JsonLdProfileSet, RdfFormat, RdfSerializer};
use oxigraph::sparql::results::{QueryResultsFormat, QueryResultsSerializer};
use oxigraph::sparql::{CancellationToken, QueryEvaluationError, QueryResults, SparqlEvaluator};
use oxigraph::store::Store;

/// A serialized answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryAnswer {
    pub body: String,
    /// Solutions or triples in the body (1 for ASK).
    pub rows: usize,
    /// True when the answer was cut at the row limit.
    pub truncated: bool,
}

enum Format {
    Solutions(QueryResultsFormat),
    Graph(RdfFormat),
}

fn format_of(name: &str) -> Result<Format, StoreError> {
    Ok(match name {
        "json" => Format::Solutions(QueryResultsFormat::Json),
        "xml" => Format::Solutions(QueryResultsFormat::Xml),
        "csv" => Format::Solutions(QueryResultsFormat::Csv),
        "tsv" => Format::Solutions(QueryResultsFormat::Tsv),
        "turtle" => Format::Graph(RdfFormat::Turtle),
        "ntriples" => Format::Graph(RdfFormat::NTriples),
        "nquads" => Format::Graph(RdfFormat::NQuads),
        "jsonld" => Format::Graph(RdfFormat::JsonLd { profile: JsonLdProfileSet::empty() }),
        other => return Err(StoreError::Refused(format!("unknown result format {other}"))),
    })
}

fn evaluation(e: QueryEvaluationError) -> StoreError {
    match e {
        QueryEvaluationError::Cancelled => StoreError::Cancelled,
        e => StoreError::Refused(format!("SPARQL query refused: {e}")),
    }
}

fn io(e: std::io::Error) -> StoreError {
    StoreError::failed(e)
}

/// Runs `sparql` on a snapshot of `store` taken now and serializes its answer in `format` (a solution
/// format for SELECT and ASK, an RDF format for CONSTRUCT and DESCRIBE; a mismatch is refused), keeping
/// at most `max_rows` rows. `cancel`, when given, stops the evaluation (StoreError::Cancelled). Updates
/// are refused: this is a read.
pub fn run_query(
    store: &Store,
    sparql: &str,
    format: &str,
    max_rows: usize,
    cancel: Option<CancellationToken>,
) -> Result<QueryAnswer, StoreError> {
    let format = format_of(format)?;
    let mut evaluator = SparqlEvaluator::new();
    // GeoSPARQL's functions (geof:distance, geof:sfWithin, ...), as the docs' queries use them
    for (name, function) in spargeo::GEOSPARQL_EXTENSION_FUNCTIONS {
        evaluator = evaluator.with_custom_function(name.into_owned(), function);
    }
    if let Some(token) = cancel {
        evaluator = evaluator.with_cancellation_token(token);
    }
    let prepared = evaluator
        .parse_query(sparql)
        .map_err(|e| StoreError::Refused(format!("SPARQL query refused: {e}")))?;
    let results = prepared.on_store(store).execute().map_err(evaluation)?;
    match (results, format) {
        (QueryResults::Boolean(b), Format::Solutions(f)) => {
            let body = QueryResultsSerializer::from_format(f)
                .serialize_boolean_to_writer(Vec::new(), b)
                .map_err(io)?;
            Ok(QueryAnswer { body: text(body)?, rows: 1, truncated: false })
        }
        (QueryResults::Solutions(solutions), Format::Solutions(f)) => {
            let vars = solutions.variables().to_vec();
            let mut out = QueryResultsSerializer::from_format(f)
                .serialize_solutions_to_writer(Vec::new(), vars)
                .map_err(io)?;
            let mut rows = 0;
            let mut truncated = false;
            for s in solutions {
                let s = s.map_err(evaluation)?;
                if rows == max_rows {
                    truncated = true;
                    break;
                }
                out.serialize(s.iter()).map_err(io)?;
                rows += 1;
            }
            Ok(QueryAnswer { body: text(out.finish().map_err(io)?)?, rows, truncated })
        }
        (QueryResults::Graph(triples), Format::Graph(f)) => {
            let mut out = RdfSerializer::from_format(f).for_writer(Vec::new());
            let mut rows = 0;
            let mut truncated = false;
            for t in triples {
                let t = t.map_err(evaluation)?;
                if rows == max_rows {
                    truncated = true;
                    break;
                }
                out.serialize_triple(&t).map_err(io)?;
                rows += 1;
            }
            Ok(QueryAnswer { body: text(out.finish().map_err(io)?)?, rows, truncated })
        }
        _ => Err(StoreError::Refused("the result format does not fit the query form".into())),
    }
}

fn text(bytes: Vec<u8>) -> Result<String, StoreError> {
    String::from_utf8(bytes).map_err(StoreError::failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writes::{apply, WriteKind, WriteOp};

    fn store() -> Store {
        let s = Store::new().unwrap();
        let t = "<urn:a> <urn:p> \"1\" .\n<urn:b> <urn:p> \"2\" .\n<urn:c> <urn:p> \"3\" .\n";
        let op = WriteOp { kind: WriteKind::Insert, graph: "".into(), subject: None, triples: t.into() };
        apply(&s, &[op], false).unwrap();
        s
    }

    #[test]
    fn select_is_cut_at_the_row_limit_and_says_so() {
        let a = run_query(&store(), "SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s", "json", 2, None).unwrap();
        assert_eq!(a.rows, 2);
        assert!(a.truncated);
        assert!(a.body.contains("urn:a") && a.body.contains("urn:b") && !a.body.contains("urn:c"));
    }

    #[test]
    fn each_solution_format_is_written() {
        let s = store();
        let q = "SELECT ?o WHERE { <urn:a> ?p ?o }";
        assert!(run_query(&s, q, "csv", 10, None).unwrap().body.starts_with("o\r\n1"));
        assert!(run_query(&s, q, "tsv", 10, None).unwrap().body.starts_with("?o\n\"1\""));
        assert!(run_query(&s, q, "xml", 10, None).unwrap().body.contains("<literal>1</literal>"));
        let ask = run_query(&s, "ASK { <urn:a> ?p ?o }", "json", 10, None).unwrap();
        assert_eq!(ask.body, "{\"head\":{},\"boolean\":true}");
    }

    #[test]
    fn construct_answers_in_rdf_formats() {
        let s = store();
        let q = "CONSTRUCT { ?s <urn:q> ?o } WHERE { ?s <urn:p> ?o }";
        let nt = run_query(&s, q, "ntriples", 10, None).unwrap();
        assert_eq!(nt.rows, 3);
        assert!(nt.body.contains("<urn:a> <urn:q> \"1\" ."));
        assert!(run_query(&s, q, "jsonld", 10, None).unwrap().body.contains("urn:q"));
    }

    #[test]
    fn geosparql_distance_is_known() {
        let q = "PREFIX geof: <http://www.opengis.net/def/function/geosparql/> PREFIX uom: <http://www.opengis.net/def/uom/OGC/1.0/> SELECT (geof:distance(\"POINT(106.7 10.77)\"^^<http://www.opengis.net/ont/geosparql#wktLiteral>, \"POINT(106.71 10.77)\"^^<http://www.opengis.net/ont/geosparql#wktLiteral>, uom:metre) AS ?d) WHERE {}";
        let a = run_query(&store(), q, "json", 10, None).unwrap();
        assert!(a.body.contains("\"d\""), "{}", a.body);
        assert!(a.body.contains("double") || a.body.contains("decimal"), "{}", a.body);
    }

    #[test]
    fn a_syntax_error_is_refused_and_a_cancelled_query_stops() {
        let err = run_query(&store(), "SELECT WHERE {", "json", 10, None).unwrap_err();
        assert!(matches!(err, StoreError::Refused(m) if m.starts_with("SPARQL query refused:")));
        let token = CancellationToken::new();
        token.cancel();
        let q = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }";
        assert_eq!(run_query(&store(), q, "json", 10, Some(token)).unwrap_err(), StoreError::Cancelled);
    }
}
