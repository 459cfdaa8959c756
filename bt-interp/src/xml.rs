//! BehaviorTree.CPP v4 XML through a registry (the `xml` feature): a Groot2
//! file loads as the same definition as its JSON twin, with the registry
//! saying which compact leaves are actions or conditions and how their
//! ports' text is typed; the registry's leaves written as a
//! `<TreeNodesModel>` for Groot2's palette.

use std::sync::Arc;

use behaved_format::LoadError;
use behaved_format::decode::LeafFamily;
use behaved_format::xml::{IncludeLoader, LeafKind, LeafModel, PortType, XmlReader, XmlTrees, nodes_model};

use crate::definition::Definition;
use crate::manifest::{Manifest, ParamType};
use crate::registry::Registry;

impl<C: 'static> Registry<C> {
    /// Loads the tree to run from a BT.CPP v4 document (its
    /// `main_tree_to_execute`, or its only `<BehaviorTree>`), the file's
    /// other trees as its subtrees. Every problem is reported at once, at
    /// its XML line and column (SEMANTICS.md, "BehaviorTree.CPP XML", says
    /// what each BT.CPP node is here and which are refused).
    ///
    /// ```
    /// use behaved_interp::{NoParams, Registry};
    /// use behaved::{Status, Condition};
    ///
    /// struct Ready;
    /// impl Condition<u32> for Ready {
    ///     fn check(&self, n: &u32) -> bool { *n > 2 }
    /// }
    /// let mut registry = Registry::<u32>::new();
    /// registry.condition("Ready", |_: NoParams| Ready);
    /// let tree = registry.load_xml(r#"<root BTCPP_format="4">
    ///   <BehaviorTree ID="Main"><Inverter><Ready/></Inverter></BehaviorTree>
    /// </root>"#)?;
    /// let mut agent = behaved_interp::Agent::new(tree);
    /// assert_eq!(agent.tick_at(&mut 1, 0.0), Status::Success);
    /// # Ok::<(), behaved_interp::LoadError>(())
    /// ```
    pub fn load_xml(&self, xml: &str) -> Result<Arc<Definition<C>>, LoadError> {
        self.load_xml_with(xml, None)
    }

    /// [`Registry::load_xml`], with `<include path="..">`d files read by
    /// `includes` (which resolves the path, relative to the including file
    /// as BT.CPP does, and bounds the size); without it an `<include>` is
    /// an error.
    pub fn load_xml_with(
        &self,
        xml: &str,
        includes: Option<IncludeLoader<'_>>,
    ) -> Result<Arc<Definition<C>>, LoadError> {
        let trees = self.read_xml(xml, includes)?;
        self.build(trees.main(), trees.library()).map_err(|e| trees.located(e))
    }

    /// Reads a BT.CPP v4 document into the model as this registry knows its
    /// leaves (which compact leaves are actions or conditions, how their
    /// ports are typed), without building it: for tools that convert or
    /// check files ([`behaved_format::xml::to_xml`] writes them back).
    pub fn read_xml(&self, xml: &str, includes: Option<IncludeLoader<'_>>) -> Result<XmlTrees, LoadError> {
        let manifest = self.manifest();
        let lookup = |name: &str| leaf_model(&manifest, name);
        let unknown = |family: LeafFamily, name: &str| self.unknown_leaf(family, name);
        let mut reader = XmlReader::new()
            .max_depth(self.max_depth)
            .max_bytes(self.max_xml_bytes)
            .leaves(&lookup)
            .check_leaves(&unknown);
        if let Some(load) = includes {
            reader = reader.includes(load);
        }
        reader.read(xml)
    }

    /// The most bytes a BT.CPP XML document and the files it includes may
    /// have in all ([`behaved_format::xml::DEFAULT_MAX_BYTES`], 8 MiB,
    /// unless set): a longer one is refused before it is parsed, as reading
    /// XML takes about 90 bytes of memory per byte of text at its peak.
    pub fn max_xml_bytes(&mut self, bytes: usize) -> &mut Self {
        self.max_xml_bytes = bytes;
        self
    }

    /// The registry's conditions and actions as a BT.CPP `<TreeNodesModel>`
    /// document, each parameter an input port with its type: loaded in
    /// Groot2, it puts the game's leaves in the palette.
    pub fn tree_nodes_model(&self) -> String {
        let manifest = self.manifest();
        let leaves: Vec<(String, LeafModel)> = manifest
            .conditions
            .keys()
            .chain(manifest.actions.keys())
            .filter_map(|name| leaf_model(&manifest, name).map(|m| (name.clone(), m)))
            .collect();
        nodes_model(&leaves)
    }
}

/// What the manifest says of leaf `name`: its kind, its ports' types and
/// which of them are outputs.
fn leaf_model(manifest: &Manifest, name: &str) -> Option<LeafModel> {
    let (kind, doc) = match manifest.conditions.get(name) {
        Some(doc) => (LeafKind::Condition, doc),
        None => (LeafKind::Action, manifest.actions.get(name)?),
    };
    let params = doc.params.iter().flatten();
    Some(LeafModel {
        kind,
        ports: params.clone().map(|p| (p.name.clone(), port_type(&p.ty))).collect(),
        outputs: params.filter(|p| p.output).map(|p| p.name.clone()).collect(),
    })
}

/// How a parameter of type `ty` is read from a port's text.
fn port_type(ty: &ParamType) -> PortType {
    match ty {
        ParamType::String | ParamType::Choice { .. } => PortType::String,
        ParamType::Boolean => PortType::Boolean,
        ParamType::Integer { .. } => PortType::Integer,
        ParamType::Number => PortType::Number,
        ParamType::List { .. } | ParamType::Object | ParamType::Any => PortType::Json,
    }
}
