(function(){
  var rows=[].slice.call(document.querySelectorAll('#diagnostic-table tbody tr'));
  var sev=document.getElementById('f-severity'),kind=document.getElementById('f-kind'),text=document.getElementById('f-text');
  var out=document.getElementById('shown-count');
  function apply(){
    var s=sev.value,k=kind.value,t=text.value.toLowerCase(),n=0;
    rows.forEach(function(r){
      var ok=(!s||r.dataset.severity===s||(s==='info'&&r.dataset.severity==='note'))&&(!k||r.dataset.kind===k)&&(!t||r.textContent.toLowerCase().indexOf(t)>=0);
      r.hidden=!ok;if(ok)n++;
    });
    out.textContent=n+' of '+rows.length+' shown';
    document.body.dataset.filtered=String(n);
  }
  sev.addEventListener('change',apply);kind.addEventListener('change',apply);text.addEventListener('input',apply);
  var q=new URLSearchParams(location.search);
  if(q.get('severity'))sev.value=q.get('severity');if(q.get('kind'))kind.value=q.get('kind');if(q.get('q'))text.value=q.get('q');
  apply();
})();
