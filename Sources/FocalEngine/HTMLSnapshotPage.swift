/// The fixed parts of an HTML snapshot: one self-contained page (no external files) that
/// shows the tree as a collapsible outline, each node with its path, index, visibility,
/// id, the tasks that can fire on it, the tasks whose patterns came near it, its registered
/// attributes, its current values (with the time each was first displayed) and its last
/// events (oldest first, as in the XML and JSON forms), each with the outcome of every task
/// it fired (a result, `undefined`, threw, timed out). Times are shown relative to the
/// session's start (its root's `createdAt`: `+1.250 s`), with the time in ISO 8601 (UTC)
/// and in milliseconds as the element's title.
///
/// A search box keeps the nodes that match the query, with their ancestors, or says that
/// none does: a node matches when its path, an event of its history, one of its tasks (or
/// near tasks, or an outcome's task) or one of its values (or attributes, or an outcome's
/// value) contains the query; `path:`, `event:`, `task:` or `value:` before the query
/// searches only that. The search is also read from the page's fragment
/// (`snapshot.html#search=event:did-select`), so a filtered view can be linked to.
///
/// Each node's element carries its own name (`data-name`); the script works out its path
/// from the nesting when the page loads (into `data-path` and the summary's `code.path`), so
/// the page is linear in the size of the tree, whatever its depth; it reads each node's own
/// text for the search once, at the same time.
///
/// The page is well-formed XHTML as well as HTML, so it can be checked with an XML parser;
/// its script has no `<` or `&` for the same reason.
enum HTMLSnapshotPage {
    static let head = """
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><meta charset="utf-8" />
        <title>Focal snapshot</title>
        <style>
        body { font: 14px system-ui, sans-serif; margin: 1.5em; }
        details.node { margin-left: 1.2em; border-left: 1px solid #ddd; padding-left: .5em; }
        summary code, li code { background: #f4f4f4; padding: 0 .25em; }
        .visible { color: #176f2c; } .hidden { color: #888; } .id, .index { color: #555; }
        ul.tasks, ul.values, ol.events, ul.results { margin: .2em 0 .4em 1em; color: #333; }
        p.attributes { margin: .2em 0 .2em 1em; color: #333; }
        .filtered { display: none; }
        </style></head><body>
        <h1>Focal snapshot</h1>
        <p><input id="search" type="search" placeholder="Search a path, event, task or value, e.g. tableView/cell or event:did-select" size="60" /></p>
        <p id="no-match" class="filtered">No node matches the search.</p>
        <div id="tree">

        """

    static let tail = """
        </div>
        <script>//<![CDATA[
        (function () {
          var search = document.getElementById('search');
          var noMatch = document.getElementById('no-match');
          // Document order puts a node before its descendants: a node's path is its parent's
          // and its own name (the root's is "/"), each worked out once.
          var nodes = Array.prototype.slice.call(document.querySelectorAll('details.node'));
          var paths = new Map();
          // Each node's own text by what it is (its children's nodes not included), for the search.
          var fields = new Map();
          nodes.forEach(function (node) {
            var parent = node.parentElement.closest('details.node');
            var path = parent ? paths.get(parent) + '/' + node.getAttribute('data-name') : '';
            paths.set(node, path);
            node.setAttribute('data-path', path || '/');
            node.firstElementChild.querySelector('code.path').textContent = path || '/';
            var own = { path: path || '/', event: '', task: '', value: '' };
            Array.prototype.forEach.call(node.children, function (part) {
              if (part.matches('ol.events')) {
                Array.prototype.forEach.call(part.children, function (event) {
                  own.event += '\\n' + event.firstElementChild.textContent;
                  var outcomes = event.querySelector('ul.results');
                  if (outcomes) {
                    own.task += '\\n' + outcomes.textContent;
                    own.value += '\\n' + outcomes.textContent;
                  }
                });
              } else if (part.matches('ul.tasks, ul.near')) {
                own.task += '\\n' + part.textContent;
              } else if (part.matches('ul.values, p.attributes')) {
                own.value += '\\n' + part.textContent;
              }
            });
            fields.set(node, own);
          });
          // `event:x`, `task:x`, `value:x` and `path:x` search one field; any other query searches them all.
          function matches(node, query) {
            var own = fields.get(node);
            var colon = query.indexOf(':');
            var field = colon === -1 ? '' : query.slice(0, colon);
            if (field === 'path' || field === 'event' || field === 'task' || field === 'value') {
              return own[field].indexOf(query.slice(colon + 1).trim()) !== -1;
            }
            return own.path.indexOf(query) !== -1 || own.event.indexOf(query) !== -1 ||
              own.task.indexOf(query) !== -1 || own.value.indexOf(query) !== -1;
          }
          // Walking the nodes backwards decides every node after its children, so filtering
          // is linear in the number of nodes.
          nodes.reverse();
          function filter(query) {
            var kept = new Set();
            var any = false;
            nodes.forEach(function (node) {
              var keep = query === '' || kept.has(node) || matches(node, query);
              any = any || keep;
              node.classList.toggle('filtered', !keep);
              if (keep) {
                if (query !== '') { node.open = true; }
                var parent = node.parentElement.closest('details.node');
                if (parent) { kept.add(parent); }
              }
            });
            noMatch.classList.toggle('filtered', any || query === '');
          }
          search.addEventListener('input', function () {
            var query = search.value.trim();
            filter(query);
            history.replaceState(null, '', query === '' ? location.pathname : '#search=' + encodeURIComponent(query));
          });
          // A link to the page can carry a search: snapshot.html#search=tableView/cell, #search=event:did-select
          var prefix = '#search=';
          if (location.hash.indexOf(prefix) === 0) {
            search.value = decodeURIComponent(location.hash.slice(prefix.length));
            filter(search.value.trim());
          }
        })();
        //]]></script>
        </body></html>

        """
}
